// The HTML report's section of what other tools would have printed for the run (`bench report
// --as`): one table a tool, from the JSON its recomputation writes (peer_view/render.hpp's
// to_json): its key, its value and unit, bench's figure it is read against, and the rule
// between them.
#include <string>

#include <fmt/format.h>

#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {
namespace {

std::string value_cell(const json& figure, std::string_view name) {
  return view::fixed(view::number(figure, name), 2);
}

std::string tool_table(const json& tool) {
  std::string rows;
  for (const json& figure : tool.value("figures", json::array())) {
    const bool has_bench = figure.contains("bench_key") && figure["bench_key"].is_string();
    rows += fmt::format(
        "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}"
        "</td><td>{}</td></tr>",
        esc(figure.value("key", "")), value_cell(figure, "value"), esc(figure.value("unit", "")),
        has_bench ? value_cell(figure, "bench_value") : std::string("none"),
        esc(figure.value("why", "")));
  }
  std::string notes;
  for (const json& note : tool.value("notes", json::array())) {
    if (note.is_string()) notes += fmt::format("<li>{}</li>", esc(note.get<std::string>()));
  }
  return fmt::format(
      "<h3>{} <small>({}), {} requests</small></h3><table><thead><tr><th scope=\"col\">its "
      "figure</th><th scope=\"col\">value</th><th scope=\"col\">unit</th><th scope=\"col\">bench"
      "</th><th scope=\"col\">why they differ</th></tr></thead><tbody>{}</tbody></table>{}",
      esc(tool.value("title", "")), esc(tool.value("source", "")),
      tool.value("requests", std::int64_t{0}), rows,
      notes.empty() ? std::string() : "<ul>" + notes + "</ul>");
}

}  // namespace

std::string peer_views_section(const json& views) {
  std::string tables;
  for (const json& tool : views.value("tools", json::array())) tables += tool_table(tool);
  if (tables.empty()) return "";
  return "<section class=\"card\" id=\"peer-views\"><h2>What each tool would have printed</h2>"
         "<p>Each tool's own rules applied to this run's request log (<code>bench report "
         "--as</code>): where its TTFT starts and ends, its gaps, its per-token time, its token "
         "counts, percentiles and window.</p>" +
         tables + "</section>";
}

}  // namespace bench::report::html
