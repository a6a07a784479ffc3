#include "server_gauges.hpp"

#include <cstdint>
#include <vector>

#include "bench/results/format.hpp"
#include "bench/results/server_findings.hpp"
#include "bench/results/server_section.hpp"
#include "bench/server_metrics/gauge_buckets.hpp"
#include "bench/util/clock.hpp"

namespace bench::results {
namespace {

using nlohmann::json;
using server_metrics::GaugePoint;
using server_metrics::GaugeStat;

json stat_json(const GaugeStat& stat) {
  return {{"mean", number_or_null(stat.mean())}, {"max", number_or_null(stat.maximum())}};
}

// The series as columns, one value per point: the mean of the readings it merges.
json series_json(const server_metrics::GaugeSeries& series) {
  json t_s = json::array(), running = json::array(), waiting = json::array(), kv = json::array();
  for (const GaugePoint& point : series.points()) {
    t_s.push_back(ns_to_s(point.start_ns));
    running.push_back(number_or_null(point.requests_running.mean()));
    waiting.push_back(number_or_null(point.requests_waiting.mean()));
    kv.push_back(number_or_null(point.kv_cache_usage_ratio.mean()));
  }
  return {{"readings_per_point", series.readings_per_point()},
          {"max_points", series.max_points()},
          {"t_s", t_s},
          {"requests_running", running},
          {"requests_waiting", waiting},
          {"kv_cache_usage", kv}};
}

// The timeline's buckets on the clock of `polls`' series.
std::vector<server_metrics::BucketSpan> bucket_spans(const metrics::RunSummary& summary,
                                                     const ServerMetricsWindow& window,
                                                     const GaugePolls& polls) {
  const std::int64_t start_ns =
      window.records_epoch_steady_ns + summary.timeline_start_ns - polls.origin_steady_ns;
  std::vector<server_metrics::BucketSpan> spans;
  for (const metrics::TimelineBucket& bucket : summary.timeline) {
    spans.push_back({start_ns + s_to_ns_rounded(bucket.t_s),
                     start_ns + s_to_ns_rounded(bucket.t_s + bucket.width_s)});
  }
  return spans;
}

}  // namespace

void put_timeline_gauges(json& buckets, const metrics::RunSummary& summary,
                         const ServerMetricsWindow& window) {
  // One server: its polls; several: each one's, combined.
  std::vector<const GaugePolls*> polled;
  if (window.polls) polled.push_back(&*window.polls);
  for (const ServerMetricsWindow& server : window.servers) {
    if (server.polls) polled.push_back(&*server.polls);
  }
  if (polled.empty() || !buckets.is_array() || buckets.size() != summary.timeline.size()) return;
  std::vector<std::vector<server_metrics::BucketGauges>> per_server;
  for (const GaugePolls* polls : polled) {
    const std::vector<server_metrics::BucketSpan> spans = bucket_spans(summary, window, *polls);
    per_server.push_back(server_metrics::bucket_gauges(polls->series, spans));
  }
  const std::vector<server_metrics::BucketGauges> gauges =
      server_metrics::combine_servers(per_server);
  for (std::size_t i = 0; i < gauges.size(); ++i) {
    buckets[i][results::key::server_requests_running] = number_or_null(gauges[i].requests_running);
    buckets[i][results::key::server_requests_waiting] = number_or_null(gauges[i].requests_waiting);
    buckets[i][results::key::server_kv_cache_usage] =
        number_or_null(gauges[i].kv_cache_usage_ratio);
  }
}

json gauges_json(const GaugePolls& polls) {
  const GaugePoint& totals = polls.series.totals();
  return {{"interval_s", polls.interval_s},
          {"polls", polls.polls},
          {"polls_failed", polls.failed},
          {"polls_skipped", polls.skipped},
          {"first_poll_failure",
           polls.first_failure.empty() ? json(nullptr) : json(polls.first_failure)},
          {"slowest_scrape_s", polls.slowest_scrape_s},
          {"requests_running", stat_json(totals.requests_running)},
          {"requests_waiting", stat_json(totals.requests_waiting)},
          {"kv_cache_usage", stat_json(totals.kv_cache_usage_ratio)},
          {"queue", polls.queue.polls > 0 ? queue_json(polls.queue) : json(nullptr)},
          {"series", series_json(polls.series)}};
}

}  // namespace bench::results
