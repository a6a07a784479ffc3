#pragma once
// What a server says of itself in one scrape, read through the name map of its family, and what
// changed between two scrapes (the measured window's edges).
//
// The family is detected from the names present: vLLM (`vllm:`), SGLang (`sglang:`), llama.cpp
// (`llamacpp:`), TGI (`tgi_`), TensorRT-LLM (`trtllm_`). The names per family are in name_maps.cpp,
// each with the upstream source it comes from. A figure the server does not expose stays unknown
// (nullopt), never 0. Series of one metric (per engine, per model, per finish reason) are summed;
// a usage or hit ratio takes its largest series (the fullest engine is the one that queues).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/server_metrics/exposition.hpp"

namespace bench::server_metrics {

enum class ServerFamily { unknown, vllm, sglang, llamacpp, tgi, trtllm };

/// "vllm", "sglang", "llama.cpp", "tgi", "trt-llm" or "unknown".
std::string_view to_string(ServerFamily family);

/// The family whose prefix most sample names carry; unknown when none does.
ServerFamily detect_family(const Exposition& exposition);

/// One cumulative bucket of a Prometheus histogram: observations <= upper_bound.
struct Bucket {
  double upper_bound = 0;  // the `le` label; the last bucket's is +Inf
  double count = 0;        // cumulative
};

struct Histogram {
  std::vector<Bucket> buckets;  // ascending upper_bound
  double count = 0;             // observations
  double sum = 0;               // sum of the observed values, in the metric's unit
};

struct Snapshot {
  ServerFamily family = ServerFamily::unknown;
  // Gauges at the moment of the scrape.
  std::optional<double> requests_running;
  std::optional<double> requests_waiting;
  std::optional<double> kv_cache_usage_ratio;    // 0..1
  std::optional<double> prefix_cache_hit_ratio;  // 0..1, where the server gives only a rate
  // Counters since the server started.
  std::optional<double> prompt_tokens;
  std::optional<double> generation_tokens;
  std::optional<double> prefix_cache_hit_tokens;    // prompt tokens found in the prefix cache
  std::optional<double> prefix_cache_query_tokens;  // prompt tokens looked up in it
  std::optional<double> preemptions;
  std::optional<double> requests_succeeded;
  // The server's own latency distributions, in seconds (what each observes: name_maps.cpp).
  std::optional<Histogram> ttft_seconds;
  std::optional<Histogram> e2e_seconds;
  std::optional<Histogram> itl_seconds;         // per token (vLLM: per engine step)
  std::optional<Histogram> tpot_seconds;        // per request
  std::optional<Histogram> queue_time_seconds;  // per request: its wait to be scheduled
  // Speculative decoding, where the server runs it and says so.
  std::optional<double> spec_draft_tokens;     // counter: tokens the drafter proposed
  std::optional<double> spec_accepted_tokens;  // counter: of them, those the target model kept
  std::optional<double> spec_accept_length;    // gauge (SGLang): tokens accepted per verify step
  std::optional<double> spec_accept_rate;      // gauge (SGLang): accepted / drafted, 0..1
  // The GPUs' energy and power, wherever the target exposes them whatever its family (a
  // DCGM exporter, or a server that serves its GPUs' series beside its own): every GPU's series
  // summed. Energy in joules, a counter since the GPU's boot (DCGM's
  // DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, mJ; AMD's gpu_energy_consumed, uJ); power in watts, a
  // gauge (DCGM_FI_DEV_POWER_USAGE; AMD's gpu_power_usage or gpu_package_power).
  std::optional<double> gpu_energy_joules;
  std::optional<double> gpu_power_watts;
  std::optional<double> gpu_energy_series;  // GPUs (series) the energy is summed over
};

/// Reads the figures of `exposition` through the name map of its detected family.
Snapshot read_snapshot(const Exposition& exposition);

/// The counters' and histograms' growth between two scrapes of one server.
struct Delta {
  ServerFamily family = ServerFamily::unknown;
  std::optional<double> prompt_tokens;
  std::optional<double> generation_tokens;
  std::optional<double> prefix_cache_hit_tokens;
  std::optional<double> prefix_cache_query_tokens;
  std::optional<double> preemptions;
  std::optional<double> requests_succeeded;
  std::optional<Histogram> ttft_seconds;  // per-bucket growth: the window's own distribution
  std::optional<Histogram> e2e_seconds;
  std::optional<Histogram> itl_seconds;
  std::optional<Histogram> tpot_seconds;
  std::optional<Histogram> queue_time_seconds;
  std::optional<double> spec_draft_tokens;
  std::optional<double> spec_accepted_tokens;
  // Gauges have no growth: the values of the window's closing scrape.
  std::optional<double> spec_accept_length;
  std::optional<double> spec_accept_rate;
  // The prefix-cache hit rate where the server gives only a rate (SGLang's cache_hit_rate, of
  // its latest prefill batch; TRT-LLM's kv_cache_hit_rate), 0..1: a rate, never a count.
  std::optional<double> prefix_cache_hit_ratio;
  // The GPUs' energy counters' growth over the window, joules (all GPUs exposed); nullopt when
  // no counter was scraped, never 0. Their power, watts, at the closing scrape.
  std::optional<double> gpu_energy_joules;
  std::optional<double> gpu_power_watts;
  std::optional<double> gpu_energy_series;  // GPUs whose energy was added up (closing scrape)
  /// Why a figure both scrapes should have is unknown (a counter that went down, buckets that
  /// changed), one line each.
  std::vector<std::string> notes;
};

Delta delta_between(const Snapshot& before, const Snapshot& after);

/// The windows of several servers behind one router added up: counters summed (unknown when
/// one server's is), histograms merged bucket by bucket (unknown when their buckets differ),
/// the family kept when all agree; every server's notes kept, prefixed by its position.
Delta sum_of(const std::vector<Delta>& deltas);

/// The bucket a percentile (0..100) of `histogram` falls in, as [lower, upper] bounds in the
/// histogram's unit: a bucketed histogram gives a range, not a value. nullopt when it is empty.
struct BucketRange {
  double lower = 0;
  double upper = 0;  // +Inf when the percentile is beyond the last finite bound
};
std::optional<BucketRange> percentile_range(const Histogram& histogram, double percentile);

/// Speculative decoding's acceptance over a window: accepted / drafted tokens from the
/// counters (vLLM, llama.cpp), else the server's own rate gauge (SGLang); nullopt when the
/// server says neither, or drafted nothing.
std::optional<double> spec_acceptance_rate(const Delta& delta);

}  // namespace bench::server_metrics
