// InferenceX's view of an agent-trace sweep (inferencex_view.hpp): its points, the terminal
// table and the chart.
#include "bench/report/inferencex_view.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "bench/report/frontier.hpp"
#include "bench/results/format.hpp"
#include "html_parts.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {
namespace {

using nlohmann::json;
namespace key = results::key;

constexpr double kIxMissing = std::numeric_limits<double>::quiet_NaN();

// What the interactivity is, said wherever it is shown: InferenceX reads AIPerf's
// inter_token_latency, one value a request, which is bench's TPOT.
constexpr std::string_view kInteractivity = "1 / p90 TPOT: per token";
constexpr std::string_view kInteractivityWhy =
    "each request's decode time over its tokens (AIPerf's ITL, which InferenceX reads), not a "
    "chunk gap";

std::string ix_cell(std::optional<double> value) {
  return value && std::isfinite(*value) ? fmt::format("{:.1f}", *value) : std::string("n/a");
}

}  // namespace

std::vector<InferenceXPoint> inferencex_points(const json& sweep) {
  std::vector<InferenceXPoint> out;
  const json* points = view::array_at(sweep, key::points);
  if (points == nullptr || points->empty()) return out;
  std::vector<std::pair<double, double>> xy;
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& point = (*points)[i];
    const json* agent = view::object_at(point, key::agent_trace);
    if (agent == nullptr) return {};
    InferenceXPoint p;
    p.index = i;
    p.load = view::sweep_value(sweep, point, i);
    p.p90_interactivity = view::number(*agent, key::p90_interactivity);
    p.total_per_gpu = view::number(point, key::total_throughput_per_gpu);
    p.output_per_gpu = view::number(point, key::output_throughput_per_gpu);
    p.computed_input_per_gpu = view::number(*agent, key::computed_input_throughput_per_gpu);
    p.total = view::number(point, key::total_throughput);
    xy.emplace_back(p.p90_interactivity.value_or(kIxMissing), p.total.value_or(kIxMissing));
    out.push_back(p);
  }
  for (std::size_t i : pareto_front(xy)) out[i].pareto = true;
  return out;
}

std::string render_inferencex_table(const json& sweep) {
  const std::vector<InferenceXPoint> points = inferencex_points(sweep);
  if (points.empty()) return "";
  const view::SweepAxis axis = view::sweep_axis(sweep);
  std::string out =
      "\nInferenceX view (agent trace): total tok/s (total = input + output) per GPU vs p90 "
      "interactivity\n";
  auto line = std::back_inserter(out);
  constexpr std::string_view kRow = "{:>1} {:>{}} {:>12} {:>10} {:>10} {:>10}\n";
  const int first_w = std::max<int>(11, static_cast<int>(axis.column.size()));
  fmt::format_to(line, kRow, "", axis.column, first_w, "p90 inter-", "total", "output", "computed");
  fmt::format_to(line, kRow, "", "", first_w, "activity", "per GPU", "per GPU", "input/GPU");
  bool any_gpu = false;
  for (const InferenceXPoint& p : points) {
    any_gpu = any_gpu || p.total_per_gpu.has_value();
    fmt::format_to(line, kRow, p.pareto ? "*" : "", axis.label(p.load), first_w,
                   ix_cell(p.p90_interactivity), ix_cell(p.total_per_gpu),
                   ix_cell(p.output_per_gpu), ix_cell(p.computed_input_per_gpu));
  }
  out += fmt::format(
      "* = Pareto point of total tok/s (total = input + output) and p90 interactivity.\n"
      "p90 interactivity: tok/s (output) per user, {},\n{}.\n"
      "total per GPU counts the cached input, as InferenceX does; output and computed input\n"
      "(prefilled: input less what the server's cache served) per GPU say what it holds.\n",
      kInteractivity, kInteractivityWhy);
  if (!any_gpu) out += "Per GPU n/a: give --gpus N.\n";
  return out;
}

std::optional<svg::Chart> inferencex_chart(const json& sweep) {
  std::vector<InferenceXPoint> points = inferencex_points(sweep);
  std::erase_if(points, [](const InferenceXPoint& p) {
    return !p.p90_interactivity || !std::isfinite(*p.p90_interactivity) || !p.total_per_gpu;
  });
  if (points.empty()) return std::nullopt;
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
    return *a.p90_interactivity < *b.p90_interactivity;
  });
  const view::SweepAxis axis = view::sweep_axis(sweep);
  svg::Series front{.name = "total tok/s (total = input + output) per GPU: Pareto front",
                    .color = html::kTotalColor,
                    .markers = true};
  svg::Series other{.name = "total tok/s (total = input + output) per GPU: other points",
                    .color = html::kTotalColor,
                    .mark = svg::Mark::kPoints};
  svg::Series output{
      .name = "output tok/s per GPU", .color = html::kOutputColor, .dashed = true, .markers = true};
  svg::Series computed{.name = "computed input tok/s per GPU (prefilled)",
                       .color = html::kInputColor,
                       .dashed = true,
                       .markers = true};
  for (const InferenceXPoint& p : points) {
    svg::Series& total = p.pareto ? front : other;
    total.x.push_back(*p.p90_interactivity);
    total.y.push_back(*p.total_per_gpu);
    total.point_labels.push_back(fmt::format("{}={}", axis.letter, axis.label(p.load)));
    output.x.push_back(*p.p90_interactivity);
    output.y.push_back(p.output_per_gpu.value_or(kIxMissing));
    computed.x.push_back(*p.p90_interactivity);
    computed.y.push_back(p.computed_input_per_gpu.value_or(kIxMissing));
  }
  svg::Chart chart;
  chart.id = "inferencex";
  chart.title = "InferenceX view: total tok/s per GPU vs p90 interactivity";
  chart.description =
      "For each sweep point of the agent trace, total tokens per second per GPU (input + output, "
      "cached input counted) against p90 interactivity; the Pareto points joined. Output and "
      "computed input tokens per second per GPU, against the same x, are their own dashed "
      "curves.";
  chart.x.label = "p90 interactivity, output tok/s per user (1 / p90 TPOT, per token)";
  chart.y.label = "tok/s per GPU (of the kind each curve names)";
  chart.y.include_zero = true;
  chart.series.push_back(std::move(front));
  if (!other.x.empty()) chart.series.push_back(std::move(other));
  chart.series.push_back(std::move(output));
  chart.series.push_back(std::move(computed));
  chart.note = fmt::format("Interactivity: {}, {}.", kInteractivity, kInteractivityWhy);
  chart.width_px = 1090;
  chart.height_px = 400;
  return chart;
}

namespace html {

std::string inferencex_section(const json& sweep) {
  if (inferencex_points(sweep).empty()) return "";
  const std::optional<svg::Chart> chart = inferencex_chart(sweep);
  const std::string body =
      chart ? "<div class=\"charts one\"><figure>" + svg::render_chart(*chart) + "</figure></div>"
            : std::string(
                  "<p class=\"note\">The InferenceX view plots total tok/s per GPU, unknown "
                  "for these points: run with --gpus N (the server's GPUs) to draw it.</p>");
  return "<section class=\"card\" id=\"inferencex\"><h2>InferenceX view (agent trace)</h2>" + body +
         "</section>";
}

}  // namespace html
}  // namespace bench::report
