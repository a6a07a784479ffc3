#include "server_latency.hpp"

#include <cmath>

#include <fmt/format.h>

#include "bench/results/format.hpp"

namespace bench::report {
namespace {

using nlohmann::json;

std::optional<double> bench_value_s(const metrics::Distribution& ms, double percentile) {
  if (ms.count == 0) return std::nullopt;
  return (percentile == 50 ? ms.median : ms.p99) / 1e3;
}

void add_ranges(std::vector<LatencyRange>& out, const std::string& metric,
                const std::optional<server_metrics::Histogram>& server,
                const metrics::Distribution& bench_ms) {
  if (!server) return;
  for (const double percentile : {50.0, 99.0}) {
    out.push_back({metric, percentile, server_metrics::percentile_range(*server, percentile),
                   bench_value_s(bench_ms, percentile)});
  }
}

std::string seconds_text(double seconds) { return fmt::format("{:.3g} s", seconds); }

std::string range_text(const server_metrics::BucketRange& range) {
  if (std::isinf(range.upper)) return fmt::format("above {:g} s", range.lower);
  return fmt::format("{:g}-{:g} s", range.lower, range.upper);
}

std::string label_of(const LatencyRange& range) {
  return fmt::format("p{:g} {}", range.percentile, range.metric);
}

}  // namespace

std::optional<bool> LatencyRange::bench_inside() const {
  if (!server_s || !bench_s) return std::nullopt;
  return *bench_s >= server_s->lower && *bench_s <= server_s->upper;
}

std::vector<LatencyRange> latency_ranges(const server_metrics::Delta& delta,
                                         const metrics::RunSummary& summary) {
  std::vector<LatencyRange> ranges;
  add_ranges(ranges, "TTFT", delta.ttft_seconds, summary.ttft_ms);
  add_ranges(ranges, "E2E", delta.e2e_seconds, summary.e2e_ms);
  return ranges;
}

void append_latency_lines(const std::vector<LatencyRange>& ranges,
                          std::vector<ServerLine>& lines) {
  for (const LatencyRange& range : ranges) {
    lines.push_back({label_of(range) + " (server)",
                     fmt::format("{}, bench {}",
                                 range.server_s ? range_text(*range.server_s) : "n/a",
                                 range.bench_s ? seconds_text(*range.bench_s) : "n/a")});
  }
  for (const LatencyRange& range : ranges) {
    if (range.bench_inside().value_or(true)) continue;
    const bool above = *range.bench_s > range.server_s->upper;
    lines.push_back(
        {"", fmt::format("Finding: bench's {} ({}) is {} the server's range ({}): {}", label_of(range),
                         seconds_text(*range.bench_s), above ? "above" : "below",
                         range_text(*range.server_s),
                         above ? "time spent outside the server's own measurement (network, "
                                 "proxies, the client's queue)"
                               : "the two measure different requests (others share the server) "
                                 "or measure differently")});
  }
}

json latency_ranges_json(const std::vector<LatencyRange>& ranges) {
  json out = json::object();
  for (const LatencyRange& range : ranges) {
    json entry = {
        {"server_lower_s", range.server_s ? json(range.server_s->lower) : json(nullptr)},
        {"server_upper_s",
         range.server_s ? results::rate_to_json(range.server_s->upper) : json(nullptr)},
        {"bench_s", results::known_or_null(range.bench_s)},
        {"bench_inside", range.bench_inside() ? json(*range.bench_inside()) : json(nullptr)}};
    const std::string metric = range.metric == "TTFT" ? "ttft" : "e2e";
    out[metric][fmt::format("p{:g}", range.percentile)] = entry;
  }
  return out;
}

}  // namespace bench::report
