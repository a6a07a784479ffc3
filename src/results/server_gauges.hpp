#pragma once
// --server-metrics-interval in the report: the server's gauges polled while the point ran, as
// mean and max (text lines and the JSON "gauges" object, with its bounded time series).
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/results/server_section.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// "Running requests (server): mean 3.2, max 4 (12 polls, every 1 s)" and the like, then one
/// note each for failed and skipped polls.
/// `who` names the server in the labels: "server", or "server 2" of several.
void append_gauge_lines(const GaugePolls& polls, std::vector<ServerLine>& lines,
                        std::string_view who = "server");

nlohmann::json gauges_json(const GaugePolls& polls);

/// The polled gauges onto the timeline's buckets (the "buckets" array of timeline_object, one
/// per summary.timeline): each bucket's server_requests_running, server_requests_waiting and
/// server_kv_cache_usage, the mean of the readings taken in it or null. Nothing when the
/// window was not polled.
void put_timeline_gauges(nlohmann::json& buckets, const metrics::RunSummary& summary,
                         const ServerMetricsWindow& window);

}  // namespace bench::results
