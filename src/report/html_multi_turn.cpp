// The HTML report's multi-turn section (--multi-turn), from the run object's "multi_turn"
// (results/format.hpp): TTFT and input tokens (cached and computed) by turn, so a prefix cache
// shows as TTFT that stops growing with the history; TTFT by context length, a table and a
// chart; then what became of the sessions; the text report's figures.
#include <limits>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"

#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {

namespace {

namespace key = results::key;

std::string ms_cell(const json& row, std::string_view stat, std::string_view name) {
  return fmt::format("<td class=\"num\">{}</td>",
                     view::fixed(view::number(row, results::distribution_key(stat, name)), 2));
}

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();  // a point the chart skips

// A mean token count; "-" when null (unknown, never 0).
std::string tokens_cell(const json& row, std::string_view name) {
  return fmt::format("<td class=\"num\">{}</td>", view::fixed(view::number(row, name), 1));
}

std::string turn_row(const json& turn) {
  return fmt::format(
             "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td>"
             "<td class=\"num\">{}</td>",
             view::count(turn, key::turn), view::grouped(view::count(turn, key::turn_requests)),
             view::grouped(view::count(turn, key::turn_completed))) +
         ms_cell(turn, "mean", "ttft") + ms_cell(turn, "median", "ttft") +
         ms_cell(turn, "p99", "ttft") + tokens_cell(turn, key::mean_input_tokens) +
         tokens_cell(turn, key::mean_cached_input_tokens) +
         tokens_cell(turn, key::mean_computed_input_tokens) + "</tr>";
}

std::string context_row(const json& band) {
  return fmt::format("<tr><th scope=\"row\">{}&ndash;{}</th><td class=\"num\">{}</td>",
                     view::grouped(view::count(band, key::context_tokens_low)),
                     view::grouped(view::count(band, key::context_tokens_high)),
                     view::grouped(view::count(band, key::turn_completed))) +
         ms_cell(band, "mean", "ttft") + ms_cell(band, "median", "ttft") +
         ms_cell(band, "p99", "ttft") + tokens_cell(band, key::mean_input_tokens) +
         tokens_cell(band, key::mean_cached_input_tokens) + "</tr>";
}

// TTFT (mean and p99) against each band's mean prompt tokens: flat with a prefix cache, rising
// without one.
std::string context_chart(const json& bands, std::string_view id_prefix) {
  svg::Series mean{.name = "TTFT mean", .color = kOutputColor, .markers = true};
  svg::Series p99{.name = "TTFT p99", .color = "#c2410c", .dashed = true, .markers = true};
  for (const json& band : bands) {
    const double x = view::number(band, key::mean_input_tokens).value_or(kMissing);
    mean.x.push_back(x);
    p99.x.push_back(x);
    mean.y.push_back(
        view::number(band, results::distribution_key("mean", "ttft")).value_or(kMissing));
    p99.y.push_back(
        view::number(band, results::distribution_key("p99", "ttft")).value_or(kMissing));
  }
  svg::Chart chart;
  chart.id = std::string(id_prefix) + "ttft-by-context";
  chart.title = "TTFT against context length";
  chart.description =
      "Mean and p99 TTFT of the completed turns in each band of prompt tokens, at the band's "
      "mean prompt length.";
  chart.x.label = "prompt tokens (band mean)";
  chart.x.include_zero = true;
  chart.y.label = "TTFT (ms)";
  chart.y.include_zero = true;
  chart.series = {mean, p99};
  return "<figure>" + svg::render_chart(chart) + "</figure>";
}

std::string context_table(const json& multi_turn, std::string_view id_prefix) {
  const json* bands = view::array_at(multi_turn, key::by_context);
  if (bands == nullptr || bands->empty()) return "";
  std::string rows;
  for (const json& band : *bands) rows += context_row(band);
  return fmt::format(
      "<h3>TTFT by context length</h3><table class=\"turns\"><thead><tr>"
      "<th scope=\"col\">prompt tokens</th><th scope=\"col\" class=\"num\">completed</th>"
      "<th scope=\"col\" class=\"num\">TTFT mean ms</th><th scope=\"col\" class=\"num\">"
      "TTFT p50 ms</th><th scope=\"col\" class=\"num\">TTFT p99 ms</th>"
      "<th scope=\"col\" class=\"num\">input tokens (mean)</th>"
      "<th scope=\"col\" class=\"num\">cached (mean)</th></tr></thead><tbody>{}</tbody>"
      "</table><p class=\"note\">Completed turns by their prompt_tokens, in bands [low, high) "
      "that double.</p>{}",
      rows, context_chart(*bands, id_prefix));
}

std::string sessions_line(const json& multi_turn) {
  const auto duration = [&multi_turn](std::string_view stat) {
    const std::string name = results::distribution_key(stat, key::session_duration);
    return view::fixed(view::number(multi_turn, name), 2);
  };
  return fmt::format(
      "<p>Sessions: {} started, {} completed, {} ended by a failed turn, {} cut short by the "
      "run's end; {} turns completed. Duration of the completed sessions (ms): mean {}, p50 {}, "
      "p99 {}.</p>",
      view::grouped(view::count(multi_turn, key::sessions_started)),
      view::grouped(view::count(multi_turn, key::sessions_completed)),
      view::grouped(view::count(multi_turn, key::sessions_failed)),
      view::grouped(view::count(multi_turn, key::sessions_unfinished)),
      view::grouped(view::count(multi_turn, key::turns_completed)), duration("mean"),
      duration("median"), duration("p99"));
}

}  // namespace

std::string multi_turn_section(const json& run, std::string_view id_prefix) {
  const json* multi_turn = view::object_at(run, key::multi_turn);
  if (multi_turn == nullptr) return "";
  std::string rows;
  if (const json* turns = view::array_at(*multi_turn, key::by_turn)) {
    for (const json& turn : *turns) rows += turn_row(turn);
  }
  return fmt::format(
      "<section class=\"card\" id=\"{}multi-turn\"><h2>Multi-turn, by turn</h2>"
      "<table class=\"turns\"><thead><tr><th scope=\"col\">turn</th>"
      "<th scope=\"col\" class=\"num\">requests</th><th scope=\"col\" class=\"num\">completed</th>"
      "<th scope=\"col\" class=\"num\">TTFT mean ms</th><th scope=\"col\" class=\"num\">TTFT p50 "
      "ms</th><th scope=\"col\" class=\"num\">TTFT p99 ms</th>"
      "<th scope=\"col\" class=\"num\">input tokens (mean)</th>"
      "<th scope=\"col\" class=\"num\">cached (mean)</th>"
      "<th scope=\"col\" class=\"num\">computed (mean)</th></tr></thead><tbody>{}</tbody>"
      "</table><p class=\"note\">Input tokens: the server's prompt_tokens of the turn's completed "
      "requests; each turn sends the whole history, so they grow with the turn. Cached and "
      "computed: what the server's usage said its prefix cache served (- when it did not say). "
      "With a prefix cache TTFT stops growing with them.</p>{}{}</section>",
      esc(id_prefix), rows, context_table(*multi_turn, id_prefix), sessions_line(*multi_turn));
}

}  // namespace bench::report::html
