#pragma once
// The efficiency figures of a run or point, each named by its kind (docs/metrics.md,
// "Efficiency"): token throughput per GPU (output, input and total apart), output tok/s per user
// (1 / TPOT), what a million tokens of each kind cost, and the GPUs' energy per token. Computed
// here only: the results' rows (run_figures.cpp) and the text report read them from here.
// A figure bench cannot know is nullopt (written null, shown "n/a"), never 0 and never guessed.
#include <optional>
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

struct Efficiency {
  // Token throughput of each kind over Accelerators::gpus, tok/s per GPU of that kind; nullopt
  // without --gpus, and input and total also when some request's input count is unknown.
  std::optional<double> output_per_gpu;
  std::optional<double> input_per_gpu;
  std::optional<double> total_per_gpu;
  // Computed (prefilled) input tok/s over --gpus: the input less what the server's prefix cache
  // served; nullopt also unless every completed request disclosed its cached tokens.
  std::optional<double> computed_input_per_gpu;
  // Output tok/s per user, a request's output tokens over its decode time = 1000 / its TPOT in
  // ms: the median and p10 (the rate 90% of requests beat) of the requests' own rates, numpy's
  // percentiles (RunSummary). nullopt when no request had the 2 tokens a TPOT needs.
  std::optional<double> median_output_per_user;
  std::optional<double> p10_output_per_user;
  // InferenceX's interactivity: 1000 / the p90 of the requests' TPOT in ms, output tok/s per
  // user. TPOT is AIPerf's per-request "inter_token_latency", the ITL InferenceX's aggregation
  // (utils/agentic/aggregation/request_metrics.py) takes its p90 of: per token, averaged over
  // each request's decode, not a chunk gap. Not p10_output_per_user, the p10 of the rates
  // themselves, which interpolates between two rates instead. nullopt without a TPOT.
  std::optional<double> p90_interactivity;
  // USD per million tokens of each kind: the GPUs' cost per second (gpus * price / 3600) over
  // that kind's throughput, times 10^6: each charges the whole GPU time to its own kind. nullopt
  // without --gpus and --gpu-hour-price, or when that kind's throughput is 0 or unknown.
  std::optional<double> usd_per_million_output;
  std::optional<double> usd_per_million_input;
  std::optional<double> usd_per_million_total;
  // --server-metrics on a target exposing the GPUs' energy counters (DCGM exporter's
  // DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, AMD's gpu_energy_consumed): their growth over the
  // point's window, joules, all GPUs exposed; and that over the output and over the total tokens
  // of the measured requests. nullopt when no counter was scraped (never 0), and per token also
  // when warm-up requests ran inside the window (their tokens' energy is in it, not their
  // tokens) or there were no tokens of that kind.
  std::optional<double> gpu_energy_joules;
  std::optional<double> joules_per_output_token;
  std::optional<double> joules_per_total_token;
};

Efficiency efficiency(const metrics::RunSummary& summary, const RunContext& context);

}  // namespace bench::results
