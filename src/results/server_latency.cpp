#include "bench/results/server_latency.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/util/clock.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

using metrics::RunSummary;
using server_metrics::Delta;

// bench times a figure on the client, the server in its own process: the two differ by the
// network and the stream's path even when they agree, and a request exactly at a bucket's bound
// is the server's to round. bench's figure is outside the server's bucket only when beyond a
// bound by more than 0.5 ms plus 2% of the bound (numpy.isclose's atol + rtol * |bound|): 10.03 ms
// against a bucket bounded at 10 ms is inside, 10.71 ms is not.
constexpr double kOutsideAbsoluteS = 0.0005;
constexpr double kOutsideRelative = 0.02;

double tolerance_s(double bound_s) { return kOutsideAbsoluteS + kOutsideRelative * bound_s; }

// bench's ITL is per token (a chunk's gap split over its tokens), as the servers' ITL histograms
// are (vLLM's per engine step: one token a step without speculative decoding); bench's ICL, per
// chunk, has no server counterpart. bench's TPOT is per request, as the servers' TPOT is.
constexpr std::array<LatencyMetric, 5> kLatencyMetrics = {{
    {"ttft", &Delta::ttft_seconds, &RunSummary::ttft_ms},
    {"e2e", &Delta::e2e_seconds, &RunSummary::e2e_ms},
    {"itl", &Delta::itl_seconds, &RunSummary::itl_ms},
    {"tpot", &Delta::tpot_seconds, &RunSummary::tpot_ms},
    {"queue_time", &Delta::queue_time_seconds, nullptr},
}};

std::optional<double> bench_value_s(const LatencyMetric& metric, const RunSummary& summary,
                                    double percentile) {
  if (metric.bench_ms == nullptr) return std::nullopt;
  const metrics::Distribution& ms = summary.*metric.bench_ms;
  if (ms.count == 0) return std::nullopt;
  return ms_to_s(percentile == 50 ? ms.median : ms.p99);
}

}  // namespace

std::optional<bool> LatencyRange::bench_inside() const {
  if (!server_s || !bench_s) return std::nullopt;
  return !bench_above() && !bench_below();
}

bool LatencyRange::bench_above() const {
  return server_s && bench_s && !std::isinf(server_s->upper) &&
         *bench_s > server_s->upper + tolerance_s(server_s->upper);
}

bool LatencyRange::bench_below() const {
  return server_s && bench_s && *bench_s < server_s->lower - tolerance_s(server_s->lower);
}

std::vector<LatencyRange> latency_ranges(const Delta& delta, const RunSummary& summary) {
  std::vector<LatencyRange> ranges;
  for (const LatencyMetric& metric : kLatencyMetrics) {
    const std::optional<server_metrics::Histogram>& server = delta.*metric.server;
    if (!server) continue;
    for (const double percentile : {50.0, 99.0}) {
      ranges.push_back({&metric, percentile, server_metrics::percentile_range(*server, percentile),
                        bench_value_s(metric, summary, percentile)});
    }
  }
  return ranges;
}

std::optional<double> mean_queue_time_s(const Delta& delta) {
  if (!delta.queue_time_seconds || !(delta.queue_time_seconds->count > 0)) return std::nullopt;
  return delta.queue_time_seconds->sum / delta.queue_time_seconds->count;
}

json latency_ranges_json(const std::vector<LatencyRange>& ranges) {
  json out = json::object();
  for (const LatencyRange& range : ranges) {
    json entry = {
        {"server_lower_s", range.server_s ? json(range.server_s->lower) : json(nullptr)},
        {"server_upper_s",
         range.server_s ? results::rate_to_json(range.server_s->upper) : json(nullptr)},
    };
    if (range.metric->bench_ms != nullptr) {
      entry["bench_s"] = results::known_or_null(range.bench_s);
      entry["bench_inside"] = range.bench_inside() ? json(*range.bench_inside()) : json(nullptr);
    }
    out[std::string(range.metric->key)][fmt::format("p{:g}", range.percentile)] = entry;
  }
  return out;
}

}  // namespace bench::results
