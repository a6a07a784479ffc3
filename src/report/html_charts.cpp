// The report's charts, built from results: TTFT and ITL CDFs from "distributions", the two
// timeline charts from "timeline" (token rates stacked output-under-input, so each bar's height
// is the total; requests in flight with failures), and the sweep's curves: output and total
// tok/s against the sweep variable, and latency against output tok/s (the latency-throughput
// curve vLLM and SGLang users plot by hand).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "bench/results/latency_figures.hpp"
#include "html_parts.hpp"
#include "html_slo_lines.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report::html {
namespace {

using view::number;

// A missing value: the SVG writer skips the point.
constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

constexpr const char* kErrorColor = "#c62828";
constexpr const char* kInFlightColor = "#2a8c8c";
constexpr const char* kTailColor = "#c2410c";
constexpr const char* kTpotColor = "#6a3fb5";
constexpr int kHalfWidthPx = 540;
constexpr int kHalfHeightPx = 340;
constexpr int kFullWidthPx = 1090;
constexpr int kTimelineHeightPx = 300;
constexpr double kLogSpanRatio = 8;  // sweep values spread this much: log x (1, 8, 64, 512)
constexpr double kCdfLogRatio = 30;  // p99 / p1 beyond this: a log axis shows both ends

std::string figure(const svg::Chart& chart) {
  return "<figure>" + svg::render_chart(chart) + "</figure>";
}

struct Bucket {
  double t_s;
  double width_s;  // the real width: a run's last bucket is usually partial
  const json* data;

  // Tokens per second over the bucket's real width (files before width_s: the nominal one).
  double rate(std::string_view count_key) const {
    return number(*data, count_key).value_or(kMissing) / width_s;
  }
  // In flight on average over the bucket, the measure the steady-state band is judged on;
  // files before mean_in_flight have only in flight at the bucket's end.
  double in_flight() const {
    const auto mean = number(*data, "mean_in_flight");
    return mean ? *mean : number(*data, "in_flight").value_or(kMissing);
  }
};

std::vector<Bucket> timeline_buckets(const json& run, double& bucket_s) {
  std::vector<Bucket> out;
  const json* timeline = view::object_at(run, "timeline");
  if (timeline == nullptr) return out;
  bucket_s = number(*timeline, "bucket_s").value_or(1.0);
  if (!(bucket_s > 0) || !std::isfinite(bucket_s)) bucket_s = 1.0;
  const json* buckets = view::array_at(*timeline, "buckets");
  if (buckets == nullptr) return out;
  for (const json& b : *buckets) {
    const auto t = number(b, "t_s");
    if (!b.is_object() || !t || !std::isfinite(*t)) continue;
    const double width_s = number(b, "width_s").value_or(bucket_s);
    out.push_back({*t, width_s > 0 && std::isfinite(width_s) ? width_s : bucket_s, &b});
  }
  return out;
}

// The steady-state window, shaded on both timeline charts.
std::vector<svg::Band> steady_band(const json& run) {
  const json* steady = view::object_at(run, "steady_state");
  if (steady == nullptr) return {};
  const auto from = number(*steady, "start_s");
  const auto to = number(*steady, "end_s");
  if (!from || !to) return {};
  return {{*from, *to, "steady state"}};
}

std::string time_axis_label() { return "time since the first measured request (s)"; }

// A dot's label on the latency charts: "c=64", "2.5/s", "no rate limit", "50% shared".
std::string point_label(const view::SweepAxis& axis, std::optional<double> value) {
  if (value && std::isinf(*value) && !axis.dot_unlimited.empty()) {
    return std::string(axis.dot_unlimited);
  }
  return fmt::format("{}{}{}", axis.dot_prefix, axis.label(value), axis.dot_suffix);
}

}  // namespace

std::string cdf_figure(const json& run, std::string_view metric, std::string_view id) {
  const auto points = view::cdf_points(run, fmt::format("{}_ms", metric));
  if (points.empty()) return "";
  const bool ttft = metric == "ttft";
  svg::Chart chart;
  chart.id = std::string(id);
  chart.title = ttft ? "TTFT distribution" : "ITL distribution";
  chart.description =
      ttft ? "Cumulative distribution of time to first token: the percentage of completed "
             "requests (y) whose TTFT was at most x milliseconds."
           : "Cumulative distribution of inter-token latency: the percentage of token gaps (y) "
             "at most x milliseconds.";
  chart.x.label = ttft ? "TTFT (ms)" : "ITL, gap between tokens (ms)";
  chart.y.label = ttft ? "requests (%)" : "token gaps (%)";
  chart.y.min = 0;
  chart.y.max = 100;
  chart.series.push_back(svg::cdf_series(ttft ? "TTFT" : "ITL", points, kOutputColor));
  double p1 = 0, p99 = 0;
  for (const auto& [p, v] : points) {
    if (p == 1) p1 = v;
    if (p == 99) p99 = v;
  }
  chart.x.log_scale = p1 > 0 && p99 / p1 > kCdfLogRatio;
  const auto stat = [&](std::string_view name) {
    return view::fixed(number(run, results::distribution_key(name, metric)), 2);
  };
  chart.note =
      fmt::format("p50 {} ms, p90 {} ms, p99 {} ms, max {} ms{}", stat("median"), stat("p90"),
                  stat("p99"), stat("max"), chart.x.log_scale ? "; log scale" : "");
  chart.width_px = kHalfWidthPx;
  chart.height_px = kHalfHeightPx;
  return figure(chart);
}

std::string token_timeline_figure(const json& run, std::string_view id) {
  double bucket_s = 1;
  const std::vector<Bucket> buckets = timeline_buckets(run, bucket_s);
  if (buckets.empty()) return "";
  svg::Series output{.name = "output tok/s",
                     .color = kOutputColor,
                     .mark = svg::Mark::kBars,
                     .bar_width = bucket_s};
  svg::Series input{.name = "input tok/s (stacked on output; bar = total tok/s)",
                    .color = kInputColor,
                    .mark = svg::Mark::kBars,
                    .bar_width = bucket_s};
  for (const Bucket& b : buckets) {
    for (svg::Series* series : {&output, &input}) {
      series->x.push_back(b.t_s);
      series->widths.push_back(b.width_s);
    }
    output.y.push_back(b.rate("output_tokens"));
    input.y.push_back(b.rate("input_tokens"));
  }
  svg::Chart chart;
  chart.id = std::string(id);
  chart.title = "Token throughput over time";
  chart.description = fmt::format(
      "Output and input tokens per second in {} s buckets, stacked: the output part is the "
      "decode rate; the whole bar is the total.",
      view::fixed(bucket_s, 1));
  chart.x.label = time_axis_label();
  chart.x.min = 0;
  chart.y.label = "tokens per second";
  chart.y.include_zero = true;
  chart.series = {output, input};
  chart.bands = steady_band(run);
  chart.note =
      "Output tokens counted when their chunk arrived; input tokens when the request's "
      "first token arrived.";
  chart.width_px = kFullWidthPx;
  chart.height_px = kTimelineHeightPx;
  return figure(chart);
}

std::string requests_timeline_figure(const json& run, std::string_view id) {
  double bucket_s = 1;
  const std::vector<Bucket> buckets = timeline_buckets(run, bucket_s);
  if (buckets.empty()) return "";
  svg::Series in_flight{.name = "in flight (mean over each bucket)",
                        .color = kInFlightColor,
                        .mark = svg::Mark::kArea,
                        .bar_width = bucket_s};
  svg::Series errors{.name = "failed (ended in the bucket)",
                     .color = kErrorColor,
                     .mark = svg::Mark::kBars,
                     .bar_width = bucket_s};
  double end_s = 0;
  for (const Bucket& b : buckets) {
    for (svg::Series* series : {&in_flight, &errors}) {
      series->x.push_back(b.t_s);
      series->widths.push_back(b.width_s);
    }
    in_flight.y.push_back(b.in_flight());
    errors.y.push_back(number(*b.data, "errors").value_or(kMissing));
    end_s = std::max(end_s, b.t_s + b.width_s);
  }
  svg::Chart chart;
  chart.id = std::string(id);
  chart.title = "Requests in flight and failures over time";
  chart.description = fmt::format(
      "Requests in flight on average over each {} s bucket, and failed requests per bucket.",
      view::fixed(bucket_s, 1));
  chart.x.label = time_axis_label();
  chart.x.min = 0;
  chart.y.label = "requests";
  chart.y.include_zero = true;
  chart.series = {in_flight, errors};
  const auto rate = number(run, "request_rate");
  if (const auto limit = number(run, "max_concurrency"); limit && (!rate || std::isinf(*rate))) {
    chart.series.push_back({.name = "configured concurrency",
                            .x = {0, end_s},
                            .y = {*limit, *limit},
                            .color = kTotalColor,
                            .dashed = true});
  }
  chart.bands = steady_band(run);
  chart.width_px = kFullWidthPx;
  chart.height_px = kTimelineHeightPx;
  return figure(chart);
}

namespace {

// A search's throughput SLOs as lines over the probes' loads [lo, hi]; with the steady window
// they were judged on the steady-state window's throughput, which these whole-run points are not.
void add_throughput_slos(svg::Chart& chart, const json& sweep, double lo, double hi) {
  const json* search = view::object_at(sweep, "search");
  const bool steady = search != nullptr && view::text(*search, "slo_window") == "steady";
  for (const SloLine& slo : search_slo_lines(sweep)) {
    if ((slo.metric == "output_throughput" || slo.metric == "total_throughput") && lo <= hi) {
      chart.series.push_back(
          slo_series(slo, lo, hi, steady ? " (judged on the steady-state window)" : ""));
    }
  }
}

}  // namespace

std::string sweep_throughput_figure(const json& sweep) {
  const json* points = view::array_at(sweep, "points");
  if (points == nullptr || points->empty()) return "";
  const view::SweepAxis axis = view::sweep_axis(sweep);
  svg::Series output{.name = "output tok/s", .color = kOutputColor, .markers = true};
  svg::Series total{.name = "total tok/s (input + output)",
                    .color = kTotalColor,
                    .dashed = true,
                    .markers = true};
  std::vector<std::string> unplotted;
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& point = (*points)[i];
    const auto value = view::sweep_value(sweep, point, i);
    const auto out = number(point, "output_throughput");
    const auto tot = number(point, "total_throughput");
    if (!value || !std::isfinite(*value)) {
      unplotted.push_back(fmt::format("{} {}: {} output tok/s, {} total tok/s", axis.noun,
                                      axis.label(value), view::fixed(out, 1), view::fixed(tot, 1)));
      continue;
    }
    const double x = *value * axis.shown_scale;  // a share in percent
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    output.x.push_back(x);
    output.y.push_back(out.value_or(kMissing));
    output.point_labels.push_back(out ? view::fixed(*out, *out >= 100 ? 0 : 1) : "");
    total.x.push_back(x);
    total.y.push_back(tot.value_or(kMissing));
    total.point_labels.push_back(tot ? view::fixed(*tot, *tot >= 100 ? 0 : 1) : "");
  }
  svg::Chart chart;
  chart.id = "sweep-throughput";
  chart.title = fmt::format("Output and total token throughput vs {}", axis.title);
  chart.description =
      "For each sweep point, output tokens per second (the decode rate) and "
      "total tokens per second (input + output).";
  chart.x.label = axis.chart_axis;
  // Loads span decades; shares are percentages of a prompt, read on a linear 0-100% axis.
  chart.x.log_scale = axis.is_load && lo > 0 && hi / lo >= kLogSpanRatio;
  if (!axis.is_load) {
    chart.x.min = 0;
    chart.x.max = 100;
  }
  chart.description += axis.chart_note;
  chart.y.label = "tokens per second";
  chart.y.include_zero = true;
  chart.series = {output, total};
  add_throughput_slos(chart, sweep, lo, hi);
  if (!unplotted.empty()) {
    chart.note =
        std::string(axis.unplotted) + unplotted.front() + (unplotted.size() > 1 ? "; ..." : "");
  } else if (chart.x.log_scale) {
    chart.note = "x axis: log scale";
  }
  chart.width_px = kFullWidthPx;
  chart.height_px = 360;
  return figure(chart);
}

namespace {

// One latency statistic ("median", "p99", ...) of `figure` ("ttft", "tpot") at every point,
// against its output throughput.
svg::Series latency_series(const json& sweep, const json& points, std::string_view figure,
                           std::string_view stat, const view::SweepAxis& axis) {
  const std::string upper = figure == "ttft" ? "TTFT" : "TPOT";
  const std::string shown = stat == "median" ? "p50" : std::string(stat);
  const bool tail = stat != "median";
  svg::Series series{.name = upper + " " + shown,
                     .color = tail ? kTailColor : (figure == "ttft" ? kOutputColor : kTpotColor),
                     .dashed = tail,
                     .markers = true};
  const std::string key = fmt::format("{}_{}_ms", stat, figure);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& point = points[i];
    series.x.push_back(number(point, "output_throughput").value_or(kMissing));
    series.y.push_back(number(point, key).value_or(kMissing));
    if (!tail) series.point_labels.push_back(point_label(axis, view::sweep_value(sweep, point, i)));
  }
  return series;
}

// The chart's statistics: `shown` and any other a search's SLO names, then each such SLO as a
// line across the points' throughput.
std::vector<svg::Series> latency_chart_series(const json& sweep, const json& points,
                                              std::string_view figure,
                                              std::vector<std::string> stats,
                                              const view::SweepAxis& axis) {
  const std::string suffix = fmt::format("_{}_ms", figure);
  const std::vector<SloLine> slos = search_slo_lines(sweep);
  for (const SloLine& slo : slos) {
    if (!slo.metric.ends_with(suffix)) continue;
    const std::string stat = slo.metric.substr(0, slo.metric.size() - suffix.size());
    if (std::find(stats.begin(), stats.end(), stat) == stats.end()) stats.push_back(stat);
  }
  std::vector<svg::Series> series;
  for (const std::string& stat : stats) {
    series.push_back(latency_series(sweep, points, figure, stat, axis));
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (double x : series.front().x) {
    if (!std::isfinite(x)) continue;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  for (const SloLine& slo : slos) {
    if (slo.metric.ends_with(suffix) && lo <= hi) series.push_back(slo_series(slo, lo, hi));
  }
  return series;
}

}  // namespace

std::string sweep_latency_figures(const json& sweep) {
  const json* points = view::array_at(sweep, "points");
  if (points == nullptr || points->empty()) return "";
  const view::SweepAxis axis = view::sweep_axis(sweep);
  auto chart_of = [&](std::string id, std::string title, std::string y_label,
                      std::vector<svg::Series> series) {
    svg::Chart chart;
    chart.id = std::move(id);
    chart.title = std::move(title);
    chart.description =
        "Each sweep point's latency against its output tokens per second; "
        "points are labelled with their " +
        std::string(axis.title) + ".";
    chart.x.label = "output token throughput (output tok/s)";
    chart.x.include_zero = true;
    chart.y.label = std::move(y_label);
    chart.y.include_zero = true;
    chart.series = std::move(series);
    chart.width_px = kHalfWidthPx;
    chart.height_px = kHalfHeightPx;
    return figure(chart);
  };
  return chart_of("sweep-ttft", "TTFT vs output throughput", "TTFT (ms)",
                  latency_chart_series(sweep, *points, "ttft", {"median", "p99"}, axis)) +
         chart_of("sweep-tpot", "TPOT vs output throughput", "TPOT (ms)",
                  latency_chart_series(sweep, *points, "tpot", {"median"}, axis));
}

}  // namespace bench::report::html
