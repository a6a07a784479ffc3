#pragma once
// The server's own latencies (its histograms' growth over the window) beside bench's: a bucketed
// histogram gives the range a percentile falls in, not a value, so bench's p50 and p99 are shown
// with the bucket [lower, upper] the server's same percentile falls in, and a figure of bench's
// outside that range is a finding. TTFT, E2E, ITL and TPOT have a figure of bench's to hold
// against; the queue time has none and is shown as the server's alone. The values, for the JSON
// "latency_ranges" and the reports; the reports word them (report/server_latency_words.hpp).
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace bench::results {

/// One latency the server may expose as a histogram, and bench's figure for it.
struct LatencyMetric {
  std::string_view key;  // in JSON's latency_ranges: "ttft", "e2e", "itl", "tpot", "queue_time"
  std::optional<server_metrics::Histogram> server_metrics::Delta::*server;
  metrics::Distribution metrics::RunSummary::*bench_ms;  // nullptr: bench has no counterpart
};

/// One percentile of one latency: the server's bucket and bench's value, in seconds.
struct LatencyRange {
  const LatencyMetric* metric = nullptr;
  double percentile = 0;                                // 50 or 99
  std::optional<server_metrics::BucketRange> server_s;  // nullopt: no observation in the window
  std::optional<double> bench_s;  // nullopt: no successful request, or no counterpart

  /// Whether bench's value falls in the server's bucket, within a tolerance of 0.5 ms plus 2%
  /// of the bound either side (bench and the server time from different places); nullopt when
  /// either is unknown.
  std::optional<bool> bench_inside() const;
  /// bench's value beyond the bucket's upper bound by more than the tolerance; below, its lower.
  bool bench_above() const;
  bool bench_below() const;
};

/// p50 and p99 of each latency the server exposes, in the order of the report.
std::vector<LatencyRange> latency_ranges(const server_metrics::Delta& delta,
                                         const metrics::RunSummary& summary);

/// The server's mean queue time over the window, in seconds: its histogram's _sum growth over
/// its _count growth, an exact mean (no bucket in it); nullopt when it queued no request or does
/// not expose the histogram.
std::optional<double> mean_queue_time_s(const server_metrics::Delta& delta);

/// {"ttft": {"p50": {...}, "p99": {...}}, "e2e": {...}, ...}; a metric the server does not
/// expose is absent, and one bench has no counterpart of (queue_time) has no bench_s and
/// bench_inside keys.
nlohmann::json latency_ranges_json(const std::vector<LatencyRange>& ranges);

}  // namespace bench::results
