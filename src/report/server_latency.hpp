#pragma once
// The server's own TTFT and E2E (its histograms' growth over the window) beside bench's: a
// bucketed histogram gives the range a percentile falls in, not a value, so bench's p50 and p99
// are shown with the bucket [lower, upper] the server's same percentile falls in, and a figure
// of bench's outside that range is said as a finding.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/server_metrics/snapshot.hpp"
#include "server_section.hpp"

namespace bench::report {

/// One percentile of one latency: the server's bucket and bench's value, in seconds.
struct LatencyRange {
  std::string metric;   // "TTFT" or "E2E"
  double percentile = 0;  // 50 or 99
  std::optional<server_metrics::BucketRange> server_s;  // nullopt: no observation in the window
  std::optional<double> bench_s;                        // nullopt: no successful request

  /// Whether bench's value falls in the server's bucket (bounds included); nullopt when either
  /// is unknown.
  std::optional<bool> bench_inside() const;
};

/// p50 and p99 of TTFT and E2E, for the histograms the server exposes.
std::vector<LatencyRange> latency_ranges(const server_metrics::Delta& delta,
                                         const metrics::RunSummary& summary);

/// "p99 TTFT: server 0.1-0.25 s, bench 0.182 s" lines, then one finding per figure outside.
void append_latency_lines(const std::vector<LatencyRange>& ranges, std::vector<ServerLine>& lines);

/// {"ttft": {"p50": {...}, "p99": {...}}, "e2e": {...}}; a metric the server does not expose is
/// absent.
nlohmann::json latency_ranges_json(const std::vector<LatencyRange>& ranges);

}  // namespace bench::report
