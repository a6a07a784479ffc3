// The text report's lines of the server's own latencies (results/server_latency.hpp): each
// percentile's bucket beside bench's figure, the exact mean queue time, and a finding for each
// figure of bench's outside the server's range.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/results/server_latency.hpp"
#include "bench/util/clock.hpp"
#include "server_latency_words.hpp"
#include "text_writer.hpp"

namespace bench::report::text {
namespace {

using results::LatencyRange;

std::string seconds_text(double seconds) { return fmt::format("{:.3g} s", seconds); }

// A finding is said in milliseconds, bench's figure to 0.01 ms: a figure beyond the tolerance
// (at least 0.5 ms) always reads beyond the bound it is held against.
std::string ms_text(double seconds) { return fmt::format("{:.2f} ms", s_to_ms(seconds)); }

std::string range_ms_text(const server_metrics::BucketRange& range) {
  const auto ms = [](double seconds) { return fmt::format("{:.6g}", s_to_ms(seconds)); };
  if (std::isinf(range.upper)) return fmt::format("above {} ms", ms(range.lower));
  return fmt::format("{}-{} ms", ms(range.lower), ms(range.upper));
}

std::string range_text(const server_metrics::BucketRange& range) {
  if (std::isinf(range.upper)) return fmt::format("above {:g} s", range.lower);
  return fmt::format("{:g}-{:g} s", range.lower, range.upper);
}

std::string label_of(const LatencyRange& range) {
  return fmt::format("p{:g} {}", range.percentile, latency_words(range.metric->key).label);
}

std::string range_line(const LatencyRange& range) {
  const std::string server = range.server_s ? range_text(*range.server_s) : "n/a";
  if (range.metric->bench_ms == nullptr) return server;
  return fmt::format("{}, bench {}", server, range.bench_s ? seconds_text(*range.bench_s) : "n/a");
}

}  // namespace

void write_server_latency(Writer& w, const std::vector<LatencyRange>& ranges,
                          std::optional<double> mean_queue_s) {
  for (const LatencyRange& range : ranges)
    w.field(label_of(range) + " (server)", range_line(range));
  if (mean_queue_s) {
    w.field(
        "Mean queue time (server)",
        fmt::format("{} (exact, from its histogram's sum and count)", seconds_text(*mean_queue_s)));
  }
  for (const LatencyRange& range : ranges) {
    if (range.bench_inside().value_or(true)) continue;
    const bool above = range.bench_above();
    const LatencyWords words = latency_words(range.metric->key);
    w.text(fmt::format(
        "Finding: bench's {} ({}) is {} the server's range ({}) by more than its tolerance: {}",
        label_of(range), ms_text(*range.bench_s), above ? "above" : "below",
        range_ms_text(*range.server_s), above ? words.above_because : words.below_because));
  }
}

}  // namespace bench::report::text
