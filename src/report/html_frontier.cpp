// The efficiency frontier chart of a sweep (frontier.hpp) and its HTML card. Each curve is one
// kind per GPU against the same x, the requests' median output tok/s per user; the SLO lines
// come from the gates and search SLOs on the figures the axes plot.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/report/frontier.hpp"
#include "bench/results/format.hpp"
#include "html_parts.hpp"
#include "html_slo_lines.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {
namespace {

using nlohmann::json;
namespace key = results::key;
using html::kInputColor;
using html::kOutputColor;
using html::kTotalColor;

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
constexpr int kWidthPx = 1090;
constexpr int kHeightPx = 400;

// "c=64", "r=2.5", "s=50%": which point a dot is.
std::string point_label(const FrontierPoint& p, const view::SweepAxis& axis) {
  return fmt::format("{}={}", axis.letter, axis.label(p.load));
}

// The points in order of x, so a curve runs left to right; those without an x are left out.
std::vector<const FrontierPoint*> by_per_user(const std::vector<FrontierPoint>& points) {
  std::vector<const FrontierPoint*> sorted;
  for (const FrontierPoint& p : points) {
    if (p.per_user && std::isfinite(*p.per_user)) sorted.push_back(&p);
  }
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const FrontierPoint* a, const FrontierPoint* b) { return *a->per_user < *b->per_user; });
  return sorted;
}

svg::Series curve(std::string name, const char* color, bool dashed) {
  return svg::Series{.name = std::move(name), .color = color, .dashed = dashed, .markers = true};
}

// The limits a gate or a search SLO set on a figure this chart plots: (metric, limit, text).
std::vector<html::SloLine> plotted_limits(const json& sweep) {
  std::vector<html::SloLine> lines = html::search_slo_lines(sweep);
  const json* gates = view::object_at(sweep, "gates");
  const json* list = gates != nullptr ? view::array_at(*gates, "gates") : nullptr;
  if (list != nullptr) {
    for (const json& gate : *list) {
      const std::string metric = view::text(gate, "metric");
      const std::optional<double> limit = view::number(gate, "limit");
      if (metric.empty() || !limit) continue;
      const bool under = view::text(gate, "flag") == "--fail-under";
      lines.push_back(
          {metric, *limit,
           fmt::format("{}{}{}", metric, under ? ">=" : "<=", results::format_number(*limit))});
    }
  }
  std::vector<html::SloLine> plotted;
  for (html::SloLine& line : lines) {
    if (line.metric == key::median_output_throughput_per_user ||
        line.metric == key::output_throughput_per_gpu ||
        line.metric == key::input_throughput_per_gpu ||
        line.metric == key::total_throughput_per_gpu) {
      plotted.push_back(std::move(line));
    }
  }
  return plotted;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return;
    lo = std::min(lo, *v);
    hi = std::max(hi, *v);
  }
  bool empty() const { return lo > hi; }
};

// A line for each limit: on x (per user) a vertical one, on a per-GPU figure a horizontal one.
void add_limits(svg::Chart& chart, const json& sweep, const Range& x, const Range& y) {
  for (const html::SloLine& limit : plotted_limits(sweep)) {
    svg::Series line{.name = "SLO " + limit.text, .color = "#b91c1c", .dashed = true};
    if (limit.metric == key::median_output_throughput_per_user) {
      line.x = {limit.limit, limit.limit};
      line.y = {std::min(0.0, y.lo), std::max(y.hi, 1.0)};
    } else {
      line.x = {std::min(x.lo, limit.limit), std::max(x.hi, limit.limit)};
      line.y = {limit.limit, limit.limit};
    }
    chart.series.push_back(std::move(line));
  }
}

}  // namespace

std::optional<svg::Chart> frontier_chart(const json& sweep) {
  const std::vector<FrontierPoint> points = frontier_points(sweep);
  const view::SweepAxis axis = view::sweep_axis(sweep);
  const std::vector<const FrontierPoint*> sorted = by_per_user(points);
  svg::Series front = curve("output tok/s per GPU: Pareto front", kOutputColor, false);
  svg::Series dominated{.name = "output tok/s per GPU: other points",
                        .color = kOutputColor,
                        .mark = svg::Mark::kPoints};
  svg::Series input = curve("input tok/s per GPU", kInputColor, true);
  svg::Series total = curve("total tok/s per GPU (input + output)", kTotalColor, true);
  Range x, y;
  for (const FrontierPoint* p : sorted) {
    if (!p->output_per_gpu) continue;
    svg::Series& output = p->pareto ? front : dominated;
    output.x.push_back(*p->per_user);
    output.y.push_back(*p->output_per_gpu);
    output.point_labels.push_back(point_label(*p, axis));
    input.x.push_back(*p->per_user);
    input.y.push_back(p->input_per_gpu.value_or(kMissing));
    total.x.push_back(*p->per_user);
    total.y.push_back(p->total_per_gpu.value_or(kMissing));
    x.add(p->per_user);
    for (const auto& v : {p->output_per_gpu, p->input_per_gpu, p->total_per_gpu}) y.add(v);
  }
  if (front.x.empty()) return std::nullopt;
  svg::Chart chart;
  chart.id = "frontier";
  chart.title = axis.frontier_chart_title;
  chart.description =
      "For each sweep point, output tokens per second per GPU against the median output tokens "
      "per second each request saw (1/TPOT); the Pareto points joined. Input and total tokens "
      "per second per GPU, against the same x, are their own dashed curves.";
  chart.x.label = "output tok/s per user (1/TPOT, median of requests)";
  chart.y.label = "tok/s per GPU (of the kind each curve names)";
  chart.y.include_zero = true;
  chart.series.push_back(std::move(front));
  if (!dominated.x.empty()) chart.series.push_back(std::move(dominated));
  chart.series.push_back(std::move(input));
  chart.series.push_back(std::move(total));
  add_limits(chart, sweep, x, y);
  chart.note = axis.frontier_chart_note;
  chart.width_px = kWidthPx;
  chart.height_px = kHeightPx;
  return chart;
}

namespace html {

std::string frontier_section(const json& sweep) {
  const std::optional<svg::Chart> chart = frontier_chart(sweep);
  std::string body =
      chart ? "<div class=\"charts one\"><figure>" + svg::render_chart(*chart) + "</figure></div>"
            : std::string(
                  "<p class=\"note\">The frontier plots the output tok/s per GPU, unknown for "
                  "these points: run with --gpus N (the server's GPUs) to draw it. bench does "
                  "not guess them.</p>");
  return std::string("<section class=\"card\" id=\"frontier\"><h2>") +
         std::string(view::sweep_axis(sweep).frontier_heading) + "</h2>" + body + "</section>";
}

}  // namespace html
}  // namespace bench::report
