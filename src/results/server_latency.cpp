#include "server_latency.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/util/clock.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

// Reasons a bench figure may lie outside the server's range. Time from the request's send (TTFT,
// E2E) includes what the server does not see; time between tokens (ITL, TPOT) is stretched by a
// stream that slows on its way, or compressed where chunks held up on the way arrive bunched.
constexpr std::string_view kOutsideTheServer =
    "time spent outside the server's own measurement (network, proxies, the client's queue)";
constexpr std::string_view kDifferentRequests =
    "the two measure different requests (others share the server) or measure differently";
constexpr std::string_view kSlowedOnTheWay =
    "the stream slowed on its way from the server (network, proxies, a client that reads late)";
constexpr std::string_view kBunchedOnTheWay =
    "the two measure different requests (others share the server) or measure differently "
    "(chunks held up on the way arrive bunched; TGI's time per token includes the prefill)";

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
    {"ttft", "TTFT", &Delta::ttft_seconds, &RunSummary::ttft_ms, kOutsideTheServer,
     kDifferentRequests},
    {"e2e", "E2E", &Delta::e2e_seconds, &RunSummary::e2e_ms, kOutsideTheServer, kDifferentRequests},
    {"itl", "ITL", &Delta::itl_seconds, &RunSummary::itl_ms, kSlowedOnTheWay, kBunchedOnTheWay},
    {"tpot", "TPOT", &Delta::tpot_seconds, &RunSummary::tpot_ms, kSlowedOnTheWay, kBunchedOnTheWay},
    {"queue_time", "queue time", &Delta::queue_time_seconds, nullptr, {}, {}},
}};

std::optional<double> bench_value_s(const LatencyMetric& metric, const RunSummary& summary,
                                    double percentile) {
  if (metric.bench_ms == nullptr) return std::nullopt;
  const metrics::Distribution& ms = summary.*metric.bench_ms;
  if (ms.count == 0) return std::nullopt;
  return ms_to_s(percentile == 50 ? ms.median : ms.p99);
}

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
  return fmt::format("p{:g} {}", range.percentile, range.metric->label);
}

std::string range_line(const LatencyRange& range) {
  const std::string server = range.server_s ? range_text(*range.server_s) : "n/a";
  if (range.metric->bench_ms == nullptr) return server;
  return fmt::format("{}, bench {}", server, range.bench_s ? seconds_text(*range.bench_s) : "n/a");
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

void append_latency_lines(const std::vector<LatencyRange>& ranges,
                          std::optional<double> mean_queue_s, std::vector<ServerLine>& lines) {
  for (const LatencyRange& range : ranges) {
    lines.push_back({label_of(range) + " (server)", range_line(range)});
  }
  if (mean_queue_s) {
    lines.push_back(
        {"Mean queue time (server)", fmt::format("{} (exact, from its histogram's sum and count)",
                                                 seconds_text(*mean_queue_s))});
  }
  for (const LatencyRange& range : ranges) {
    if (range.bench_inside().value_or(true)) continue;
    const bool above = range.bench_above();
    lines.push_back(
        {"", fmt::format("Finding: bench's {} ({}) is {} the server's range ({}) by more than "
                         "its tolerance: {}",
                         label_of(range), ms_text(*range.bench_s), above ? "above" : "below",
                         range_ms_text(*range.server_s),
                         above ? range.metric->above_because : range.metric->below_because)});
  }
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
