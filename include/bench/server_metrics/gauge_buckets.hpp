#pragma once
// The polled gauges (gauge_series.hpp) laid onto the buckets of the run's timeline, so that one
// bucket says both what bench had in flight and what the server held (running, waiting, KV-cache
// usage) over the same stretch of time.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "bench/server_metrics/gauge_series.hpp"

namespace bench::server_metrics {

/// One bucket's stretch [start_ns, end_ns) on the series' clock (GaugeReading::at_ns).
struct BucketSpan {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

/// Each gauge's mean over the readings taken inside one bucket; nullopt where none was (or the
/// server did not expose that gauge then).
struct BucketGauges {
  std::optional<double> requests_running;
  std::optional<double> requests_waiting;
  std::optional<double> kv_cache_usage_ratio;
};

/// One BucketGauges per span of `buckets` (sorted, not overlapping), from the readings of
/// `series`; a reading outside every span (before the first, after the last) counts nowhere.
/// Exact while each point of the series holds one reading. A point that merges n readings
/// (a series that has halved) is taken as n readings of its mean, evenly spaced from its first
/// reading's time to its last, as the poller's regular ticks put them.
std::vector<BucketGauges> bucket_gauges(const GaugeSeries& series,
                                        std::span<const BucketSpan> buckets);

/// Several servers' bucket gauges (each from bucket_gauges over the same spans) as one: running
/// and waiting requests add up, KV-cache usage is the fullest server's (as a snapshot takes the
/// fullest engine's, snapshot.hpp). A figure is unknown in a bucket where any server's is.
std::vector<BucketGauges> combine_servers(const std::vector<std::vector<BucketGauges>>& servers);

}  // namespace bench::server_metrics
