// The HTML report's multi-turn section (--multi-turn), from the run object's "multi_turn"
// (results/format.hpp): TTFT and input tokens by turn, so a prefix cache shows as TTFT that
// stops growing with the history, then what became of the sessions; the text report's figures.
#include <fmt/format.h>

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

std::string turn_row(const json& turn) {
  return fmt::format(
             "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td>"
             "<td class=\"num\">{}</td>",
             view::count(turn, key::turn), view::grouped(view::count(turn, key::turn_requests)),
             view::grouped(view::count(turn, key::turn_completed))) +
         ms_cell(turn, "mean", "ttft") + ms_cell(turn, "median", "ttft") +
         ms_cell(turn, "p99", "ttft") +
         fmt::format("<td class=\"num\">{}</td></tr>",
                     view::fixed(view::number(turn, key::mean_input_tokens), 1));
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
      "<th scope=\"col\" class=\"num\">input tokens (mean)</th></tr></thead><tbody>{}</tbody>"
      "</table><p class=\"note\">Input tokens: the server's prompt_tokens of the turn's completed "
      "requests; each turn sends the whole history, so they grow with the turn. With a prefix "
      "cache TTFT stops growing with them.</p>{}</section>",
      esc(id_prefix), rows, sessions_line(*multi_turn));
}

}  // namespace bench::report::html
