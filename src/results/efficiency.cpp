// The efficiency figures (efficiency.hpp): per GPU, per user, cost. Each divides a run figure
// that is already known by a fact the user gave, so an unknown part leaves the result unknown.
#include "bench/results/efficiency.hpp"

#include <cmath>

#include "bench/util/clock.hpp"

namespace bench::results {
namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kMillion = 1e6;

// `value`, or nullopt when it is not a finite number: a division by a zero rate is unknown.
std::optional<double> finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<double> per_gpu(std::optional<double> per_s, const Accelerators& accelerators) {
  if (!per_s || !accelerators.gpus || *accelerators.gpus <= 0) return std::nullopt;
  return *per_s / static_cast<double>(*accelerators.gpus);
}

// USD per million tokens of a kind produced at `per_s` tok/s by the run's GPUs.
std::optional<double> usd_per_million(std::optional<double> per_s,
                                      const Accelerators& accelerators) {
  if (!per_s || *per_s <= 0 || !accelerators.gpus || !accelerators.gpu_hour_usd) {
    return std::nullopt;
  }
  const double usd_per_s =
      static_cast<double>(*accelerators.gpus) * *accelerators.gpu_hour_usd / kSecondsPerHour;
  return finite(usd_per_s / *per_s * kMillion);
}

// The window's GPU energy, joules: nullopt without --server-metrics, a failed scrape or a
// target that exposes no energy counter.
std::optional<double> window_energy(const RunContext& c) {
  if (!c.server_metrics || !c.server_metrics->delta) return std::nullopt;
  return c.server_metrics->delta->gpu_energy_joules;
}

// Joules per token of a kind; nullopt when the window's energy covers warm-up requests too.
std::optional<double> per_token(std::optional<double> joules, std::optional<double> tokens,
                                const RunContext& c) {
  if (!joules || !tokens || *tokens <= 0 || c.server_metrics->warmup_requests > 0) {
    return std::nullopt;
  }
  return finite(*joules / *tokens);
}

}  // namespace

Efficiency efficiency(const metrics::RunSummary& s, const RunContext& c) {
  const bool input_known = s.input_tokens_known();
  const std::optional<double> output = finite(s.output_throughput);
  const std::optional<double> input = input_known ? finite(s.input_throughput) : std::nullopt;
  const std::optional<double> total = input_known ? finite(s.total_throughput) : std::nullopt;
  const Accelerators& gpus = c.accelerators;
  Efficiency e;
  e.output_per_gpu = per_gpu(output, gpus);
  e.input_per_gpu = per_gpu(input, gpus);
  e.total_per_gpu = per_gpu(total, gpus);
  const bool split_known =
      input_known && s.input_split.disclosure() == metrics::CacheDisclosure::all;
  e.computed_input_per_gpu =
      per_gpu(split_known ? finite(s.computed_input_throughput) : std::nullopt, gpus);
  e.median_output_per_user = s.median_output_per_user;
  e.p10_output_per_user = s.p10_output_per_user;
  if (s.tpot_ms.count > 0 && s.tpot_ms.p90 > 0) e.p90_interactivity = 1 / ms_to_s(s.tpot_ms.p90);
  e.usd_per_million_output = usd_per_million(output, gpus);
  e.usd_per_million_input = usd_per_million(input, gpus);
  e.usd_per_million_total = usd_per_million(total, gpus);
  e.gpu_energy_joules = window_energy(c);
  const auto output_tokens = static_cast<double>(s.total_output_tokens);
  const std::optional<double> total_tokens =
      input_known ? std::optional<double>(output_tokens + static_cast<double>(s.total_input_tokens))
                  : std::nullopt;
  e.joules_per_output_token = per_token(e.gpu_energy_joules, output_tokens, c);
  e.joules_per_total_token = per_token(e.gpu_energy_joules, total_tokens, c);
  return e;
}

}  // namespace bench::results
