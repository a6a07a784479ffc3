#pragma once
// The simulator's GET /metrics: its own counts in vLLM's names and shape (vllm/v1/metrics/
// loggers.py, as prometheus_client writes them: counters as name_total, a model_name label), so
// that bench's --server-metrics can be held against the simulator's truth end to end; or, by
// --metrics-family, in SGLang's (python/sglang/srt/metrics/collector.py) or llama.cpp's
// (tools/server/server.cpp, handle_metrics) names, to test the family detection end to end.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/sim/trace_log.hpp"

namespace bench::sim {

/// Whose names GET /metrics writes.
enum class MetricsFamily { vllm, sglang, llamacpp };
std::optional<MetricsFamily> parse_metrics_family(std::string_view word);  // "vllm", ...
std::string_view metrics_family_name(MetricsFamily family);

/// A Prometheus histogram as the server keeps it: observations per bucket, their sum and count.
class SimHistogram {
 public:
  /// `upper_bounds` ascending; a last +Inf bucket is implied.
  explicit SimHistogram(std::vector<double> upper_bounds);
  void observe(double value);

  const std::vector<double>& upper_bounds() const { return upper_bounds_; }
  /// Observations <= upper_bounds()[i] (cumulative, as the exposition writes them).
  std::int64_t cumulative(std::size_t i) const;
  std::int64_t count() const { return count_; }
  double sum() const { return sum_; }

 private:
  std::vector<double> upper_bounds_;
  std::vector<std::int64_t> in_bucket_;  // one per bound, plus the +Inf bucket
  std::int64_t count_ = 0;
  double sum_ = 0;
};

/// vLLM's buckets (vllm/v1/metrics/loggers.py) for vllm:time_to_first_token_seconds, for
/// vllm:e2e_request_latency_seconds (and its other per-request times, the queue time among them),
/// and for vllm:inter_token_latency_seconds (and vllm:request_time_per_output_token_seconds), in
/// seconds.
std::vector<double> vllm_ttft_buckets_s();
std::vector<double> vllm_e2e_buckets_s();
std::vector<double> vllm_itl_buckets_s();

struct SimCounts {
  std::int64_t requests_running = 0;     // streams the model is generating for now
  std::int64_t requests_waiting = 0;     // streams queued for the model
  std::optional<double> kv_cache_usage;  // 0..1 of the KV budget; nullopt: the model has none
  std::int64_t prompt_tokens = 0;        // of every stream ended (finished or abandoned)
  std::int64_t generation_tokens = 0;    // tokens sent by every stream ended
  std::int64_t requests_succeeded = 0;   // streams that ended with their whole answer sent
  // Of every stream ended with a token sent: arrival -> first text chunk handed to the socket,
  // and arrival -> the response's last byte handed to it (the truth log's times).
  SimHistogram ttft_seconds{vllm_ttft_buckets_s()};
  SimHistogram e2e_seconds{vllm_e2e_buckets_s()};
  // Every gap between text chunks, split over the later chunk's tokens (one value per token, as
  // bench's ITL); of every stream ended with its whole answer sent, its TPOT (first to last text
  // chunk, over its tokens after the first) and its queue time (arrival to its prompt's first
  // computation).
  SimHistogram itl_seconds{vllm_itl_buckets_s()};
  SimHistogram tpot_seconds{vllm_itl_buckets_s()};
  SimHistogram queue_time_seconds{vllm_e2e_buckets_s()};
};

/// Adds the times of one ended request (its truth-log record, once its last byte went to the
/// socket) to the histograms of `counts`: its TTFT and token gaps whatever ended it, its E2E, TPOT
/// and queue time when its whole answer was sent (latency_observations.cpp).
void observe_latency(SimCounts& counts, const TraceRecord& record);

/// The Prometheus text exposition (format 0.0.4) of `counts` for `model`.
std::string vllm_exposition(const SimCounts& counts, std::string_view model);
/// SGLang's names: the same figures and histograms (in vLLM's buckets), a model_name label; its
/// TPOT under the name of its older releases (time_per_output_token_seconds).
std::string sglang_exposition(const SimCounts& counts, std::string_view model);
/// llama.cpp's names: its gauges and token counters, no label and no histogram, as it has none.
std::string llamacpp_exposition(const SimCounts& counts);
/// The exposition in `family`'s names.
std::string exposition(const SimCounts& counts, std::string_view model, MetricsFamily family);

}  // namespace bench::sim
