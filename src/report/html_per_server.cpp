// The HTML report's per-server table (--base-url repeated), from the run object's "per_server"
// (results/per_server.hpp): the same columns as the text report's, output tok/s first.
#include <fmt/format.h>

#include "bench/results/per_server.hpp"

#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {

namespace {

std::string figure_cell(const json& server, std::string_view key, int decimals) {
  return fmt::format("<td class=\"num\">{}</td>", view::fixed(view::number(server, key), decimals));
}

std::string errors_cell(const json& server) {
  std::string text;
  if (const json* errors = view::object_at(server, "errors")) {
    for (const auto& [name, count] : errors->items()) {
      text += fmt::format("{}<code>{}</code> {}", text.empty() ? "" : ", ", esc(name),
                          view::grouped(count.is_number_integer() ? count.get<std::int64_t>() : 0));
    }
  }
  return "<td>" + text + "</td>";
}

}  // namespace

std::string per_server_section(const json& run, std::string_view id_prefix) {
  const json* servers = view::array_at(run, results::key::per_server);
  if (servers == nullptr || servers->empty()) return "";
  std::string rows;
  for (const json& server : *servers) {
    rows += fmt::format(
        "<tr><th scope=\"row\"><code>{}</code></th><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
        esc(server.value(std::string(results::key::server_url), std::string())),
        view::grouped(view::count(server, results::key::server_weight)),
        view::grouped(view::count(server, "sent")), view::grouped(view::count(server, "completed")),
        view::grouped(view::count(server, "failed")));
    rows += figure_cell(server, "output_throughput", 1) +
            figure_cell(server, "input_throughput", 1) +
            figure_cell(server, "total_throughput", 1) + figure_cell(server, "median_ttft_ms", 2) +
            figure_cell(server, "p99_ttft_ms", 2) + figure_cell(server, "median_tpot_ms", 2) +
            figure_cell(server, "p99_e2e_latency_ms", 2) + errors_cell(server) + "</tr>";
  }
  return fmt::format(
      "<section class=\"card\" id=\"{}servers\"><h2>Per server</h2><table class=\"servers\">"
      "<thead><tr><th scope=\"col\">server</th><th scope=\"col\" class=\"num\">weight</th>"
      "<th scope=\"col\" class=\"num\">sent</th><th scope=\"col\" class=\"num\">completed</th>"
      "<th scope=\"col\" class=\"num\">failed</th>"
      "<th scope=\"col\" class=\"num\">output tok/s</th>"
      "<th scope=\"col\" class=\"num\">input tok/s</th>"
      "<th scope=\"col\" class=\"num\">total tok/s</th>"
      "<th scope=\"col\" class=\"num\">TTFT p50 ms</th><th scope=\"col\" class=\"num\">TTFT p99 "
      "ms</th><th scope=\"col\" class=\"num\">TPOT p50 ms</th>"
      "<th scope=\"col\" class=\"num\">E2E p99 ms</th><th scope=\"col\">errors</th></tr></thead>"
      "<tbody>{}</tbody></table><p class=\"note\">Requests spread by their index (multi-turn: by "
      "session); tok/s over "
      "the run's duration, so the servers' add up to the run's.</p></section>",
      esc(id_prefix), rows);
}

}  // namespace bench::report::html
