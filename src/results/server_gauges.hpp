#pragma once
// --server-metrics-interval in the results: the server's gauges polled while the point ran, as
// mean and max (the JSON "gauges" object, with its bounded time series).
#include <nlohmann/json.hpp>

#include "bench/results/writer.hpp"

namespace bench::results {

nlohmann::json gauges_json(const GaugePolls& polls);

/// The polled gauges onto the timeline's buckets (the "buckets" array of timeline_object, one
/// per summary.timeline): each bucket's server_requests_running, server_requests_waiting and
/// server_kv_cache_usage, the mean of the readings taken in it or null. Nothing when the
/// window was not polled.
void put_timeline_gauges(nlohmann::json& buckets, const metrics::RunSummary& summary,
                         const ServerMetricsWindow& window);

}  // namespace bench::results
