// A sweep's sections: one table row per point (output tok/s emphasised, input and total beside
// it, latency, failures), the sweep charts, and each point's own report collapsed in a
// <details>, so the page opens on the comparison and still holds every figure of every point.
#include <stdexcept>

#include <fmt/format.h>

#include "html_parts.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report::html {
namespace {

using view::fixed;
using view::number;

std::string throughput_cell(const json& point, std::string_view key, std::string_view css) {
  return fmt::format("<td class=\"num{}\">{}</td>", css, fixed(number(point, key), 1));
}

// The share of input tokens the server's prefix cache served; "n/a" when it did not say.
std::string cached_cell(const json& point) {
  return fmt::format("<td class=\"num\">{}</td>", view::cached_share_label(point));
}

std::string ms_cell(const json& point, std::string_view key) {
  return fmt::format("<td class=\"num\">{}</td>", fixed(number(point, key), 2));
}

std::string failed_cell(const json& point) {
  const std::int64_t failed = view::count(point, "failed");
  const std::int64_t sent = view::count(point, "sent");
  if (failed == 0) return fmt::format("<td class=\"num\">0 of {}</td>", view::grouped(sent));
  return fmt::format("<td class=\"num bad\">{} of {} ({})</td>", view::grouped(failed),
                     view::grouped(sent), view::percent(failed, sent));
}

// The first column's heading: what the points differ in, and its unit.
std::string axis_heading(const view::SweepAxis& axis) {
  return fmt::format("{}<span class=\"sub\">{}</span>", axis.noun, axis.heading_unit);
}

constexpr std::string_view kCachedHeading =
    "<th scope=\"col\" class=\"num\">cached<span class=\"sub\">% of input</span></th>";

std::string sweep_table(const json& sweep, const json& points, const view::SweepAxis& axis) {
  // An axis read by the cache (a prefix share) shows what the cache served beside the value
  // asked; others keep it last, after the figures of load.
  const bool cached_first = axis.cached_beside;
  std::string out = fmt::format(
      "<section class=\"card\" id=\"sweep-table\"><h2>Sweep results</h2><div class=\"scroll\">"
      "<table class=\"sweep\"><thead><tr><th scope=\"col\">{}</th>{}"
      "<th scope=\"col\" class=\"num\">requests<span class=\"sub\">completed req/s</span></th>"
      "<th scope=\"col\" class=\"num out\">output<span class=\"sub\">output tok/s</span></th>"
      "<th scope=\"col\" class=\"num\">input<span class=\"sub\">input tok/s</span></th>"
      "<th scope=\"col\" class=\"num\">total<span class=\"sub\">total tok/s</span></th>"
      "<th scope=\"col\" class=\"num\">TTFT p50<span class=\"sub\">ms</span></th>"
      "<th scope=\"col\" class=\"num\">TTFT p99<span class=\"sub\">ms</span></th>"
      "<th scope=\"col\" class=\"num\">ITL p50<span class=\"sub\">ms</span></th>"
      "<th scope=\"col\" class=\"num\">ITL p99<span class=\"sub\">ms</span></th>"
      "<th scope=\"col\" class=\"num\">TPOT p50<span class=\"sub\">ms</span></th>"
      "<th scope=\"col\" class=\"num\">failed<span class=\"sub\">of sent</span></th>"
      "{}</tr></thead><tbody>",
      axis_heading(axis), cached_first ? kCachedHeading : "", cached_first ? "" : kCachedHeading);
  bool any_estimate = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& point = points[i];
    const bool estimate = view::output_is_estimate(point);
    any_estimate = any_estimate || estimate;
    out += fmt::format("<tr><th scope=\"row\" class=\"num\">{}</th>{}",
                       axis.label(view::sweep_value(sweep, point, i)),
                       cached_first ? cached_cell(point) : "");
    out += fmt::format("<td class=\"num\">{}</td>", fixed(number(point, "request_throughput"), 2));
    out +=
        fmt::format("<td class=\"num out\">{}{}</td>", fixed(number(point, "output_throughput"), 1),
                    estimate ? "<span class=\"badge\">ESTIMATE</span>" : "");
    out += throughput_cell(point, "input_throughput", "");
    out += throughput_cell(point, "total_throughput", "");
    out += ms_cell(point, "median_ttft_ms") + ms_cell(point, "p99_ttft_ms") +
           ms_cell(point, "median_itl_ms") + ms_cell(point, "p99_itl_ms") +
           ms_cell(point, "median_tpot_ms") + failed_cell(point) +
           (cached_first ? "" : cached_cell(point)) + "</tr>";
  }
  out += "</tbody></table></div>";
  out +=
      "<p class=\"note\">Whole-run figures of each point; total = input + output. "
      "Throughput counts successful requests only. cached: share of input tokens served from "
      "the server's prefix cache (n/a: not disclosed).";
  out += axis.html_table_note;
  if (any_estimate) {
    out +=
        " <span class=\"estimate\">ESTIMATE</span>: output tokens counted as streamed "
        "chunks (no usage from the server).";
  }
  out += "</p></section>";
  return out;
}

std::string point_summary(const json& sweep, const json& point, std::size_t index,
                          const view::SweepAxis& axis) {
  const std::int64_t failed = view::count(point, "failed");
  return fmt::format(
      "<summary><span class=\"point\">{} {}</span> <span class=\"fig out\">{} output tok/s</span>"
      " <span class=\"fig\">{} input tok/s</span> <span class=\"fig\">{} total tok/s</span> "
      "<span class=\"fig{}\">{} failed</span></summary>",
      axis.noun,
      esc(axis.label(view::sweep_value(sweep, point, index))) + std::string(axis.value_unit),
      fixed(number(point, "output_throughput"), 1), fixed(number(point, "input_throughput"), 1),
      fixed(number(point, "total_throughput"), 1), failed > 0 ? " bad" : "", view::grouped(failed));
}

}  // namespace

std::string sweep_sections(const json& sweep) {
  const json* points = view::array_at(sweep, "points");
  if (points == nullptr) {
    throw std::invalid_argument("sweep results: \"points\" is missing or not an array");
  }
  for (std::size_t i = 0; i < points->size(); ++i) {
    if (!(*points)[i].is_object()) {
      throw std::invalid_argument(fmt::format("sweep results: points[{}] is not an object", i));
    }
  }
  const view::SweepAxis axis = view::sweep_axis(sweep);
  std::string out;
  std::string failing;
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& point = (*points)[i];
    const std::int64_t failed = view::count(point, "failed");
    if (failed <= 0) continue;
    if (!failing.empty()) failing += "; ";
    failing += fmt::format("{} {}: {} of {} ({})", axis.noun,
                           axis.label(view::sweep_value(sweep, point, i)), view::grouped(failed),
                           view::grouped(view::count(point, "sent")),
                           view::percent(failed, view::count(point, "sent")));
  }
  if (!failing.empty()) {
    out += "<p class=\"alert bad\" role=\"alert\">Requests failed at some points (" + esc(failing) +
           "). Their throughput counts successful requests only.</p>";
  }
  out += sweep_table(sweep, *points, axis);
  out +=
      "<section class=\"card\" id=\"sweep-charts\"><h2>Throughput and latency across the "
      "sweep</h2><div class=\"charts one\">" +
      sweep_throughput_figure(sweep) + "</div><div class=\"charts\">" +
      sweep_latency_figures(sweep) + "</div></section>";
  out += frontier_section(sweep);
  out += inferencex_section(sweep);
  out += "<section class=\"points\" id=\"sweep-points\"><h2>Each point</h2>";
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& point = (*points)[i];
    out += "<details class=\"point\">" + point_summary(sweep, point, i, axis) +
           "<div class=\"point-body\">" + run_alerts(point) +
           fmt::format(
               "<p class=\"note\">Load: {}. Duration {} s. Started {}.</p>", esc(load_label(point)),
               fixed(number(point, "duration"), 2),
               esc(view::text(point, "started_at").empty() ? "(not recorded)"
                                                           : view::text(point, "started_at"))) +
           run_sections(point, fmt::format("p{}-", i)) + "</div></details>";
  }
  out += "</section>";
  return out;
}

}  // namespace bench::report::html
