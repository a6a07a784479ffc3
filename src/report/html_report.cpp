// The page: the document shell with its inline style sheet, the header saying what ran, the
// alerts, the run's or the sweep's sections, the configuration and the metric definitions.
// The markup is also well-formed XML (void elements self-closed, every attribute quoted), so
// the tests check it with a strict parser and any browser reads it the same way.
#include "bench/report/html_report.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/protocol/endpoint.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/svg_chart.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/util/text.hpp"
#include "html_parts.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {
namespace html {

std::string esc(std::string_view text) { return svg::escape_xml(text); }

namespace {

using view::fixed;
using view::number;

// No '<' or '&' in here: the style sheet is XML text too.
constexpr std::string_view kStyle = R"css(
:root { --ink: #1d2330; --muted: #5f6672; --line: #e3e6eb; --paper: #ffffff; --ground: #f3f4f7;
  --output: #1f5fbf; --bad: #b3261e; --warn: #8a5300; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--ground); color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
  "Liberation Sans", sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 32px 40px; }
header.page { margin-bottom: 8px; }
.kicker { margin: 0; color: var(--muted); font-size: 12px; font-weight: 600;
  letter-spacing: 0.08em; text-transform: uppercase; }
h1 { margin: 2px 0 14px; font-size: 28px; line-height: 1.2; word-break: break-word; }
h2 { margin: 0 0 12px; font-size: 18px; }
.unit-h { color: var(--muted); font-weight: 400; }
section.card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
  padding: 18px 22px; margin: 16px 0; }
dl.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr));
  gap: 12px 28px; margin: 0; }
dl.meta dt { color: var(--muted); font-size: 11.5px; font-weight: 600; letter-spacing: 0.05em;
  text-transform: uppercase; }
dl.meta dd { margin: 2px 0 0; font-weight: 500; word-break: break-word; }
dl.meta.compact { margin-top: 16px; font-size: 14px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 7px 10px; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
thead th { color: var(--muted); font-size: 12px; font-weight: 600; letter-spacing: 0.04em;
  text-transform: uppercase; vertical-align: bottom; }
tbody th { font-weight: 600; }
.num { text-align: right; white-space: nowrap; }
.sub { display: block; color: var(--muted); font-size: 11.5px; font-weight: 400;
  letter-spacing: 0; text-transform: none; }
td.unit { color: var(--muted); white-space: nowrap; }
td.src, span.src { color: var(--muted); font-size: 13.5px; }
table.headline tbody th { white-space: nowrap; }
table.headline tr.headline th, table.headline tr.headline td.num { color: var(--output);
  font-size: 20px; font-weight: 700; }
table.headline tr.headline th { border-left: 4px solid var(--output); }
table.headline tr.headline td.unit { color: var(--output); font-weight: 600; }
tr.bad th, tr.bad td, td.bad, .fig.bad { color: var(--bad); font-weight: 700; }
table.sweep .out { color: var(--output); font-weight: 700; }
.estimate { color: var(--warn); font-weight: 700; }
.badge { display: block; margin-top: 2px; color: var(--warn); font-size: 11px; font-weight: 700;
  letter-spacing: 0.06em; }
.alert { margin: 12px 0; padding: 10px 14px; border-radius: 8px; font-weight: 600; }
.alert.bad { background: #fdecea; border: 1px solid #f1c4c0; color: var(--bad); }
.alert.warn { background: #fff4df; border: 1px solid #efd49b; color: var(--warn); }
.alert.info { background: #eef3fb; border: 1px solid #cddbf2; color: #1f4f99; font-weight: 500; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
.charts.one { grid-template-columns: 1fr; }
.charts + .charts { margin-top: 14px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 8px; overflow: hidden;
  background: var(--paper); }
svg.chart { display: block; width: 100%; height: auto; }
.note { margin: 10px 0 0; color: var(--muted); font-size: 13px; }
.scroll { overflow-x: auto; }
ul.samples { margin: 0; padding-left: 18px; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace;
  font-size: 13px; }
ul.samples code { word-break: break-word; }
pre { margin: 10px 0 0; padding: 12px; background: var(--ground); border-radius: 6px;
  white-space: pre-wrap; word-break: break-word; }
details.point, details.config { background: var(--paper); border: 1px solid var(--line);
  border-radius: 10px; margin: 10px 0; padding: 10px 16px; }
details summary { cursor: pointer; font-weight: 600; }
summary .point { display: inline-block; min-width: 150px; }
summary .fig { margin-left: 14px; color: var(--muted); font-weight: 500;
  font-variant-numeric: tabular-nums; }
summary .fig.out { color: var(--output); font-weight: 700; }
.point-body section.card { margin: 12px 0; border-color: #eceef2; }
section.points h2 { margin-top: 26px; }
dl.defs { display: grid; grid-template-columns: 170px 1fr; gap: 6px 18px; margin: 0;
  font-size: 14px; }
dl.defs dt { font-weight: 600; }
dl.defs dd { margin: 0; color: #353c4a; }
footer { margin-top: 22px; color: var(--muted); font-size: 12px; text-align: center; }
@media (max-width: 900px) { .charts { grid-template-columns: 1fr; } }
@media print { body { background: var(--paper); } section.card, figure { break-inside: avoid; } }
)css";

// The endpoint with its path, as the endpoint table names it; a name it does not know as it is.
std::string endpoint_label(const json& run) {
  const std::string endpoint = view::text(run, "endpoint");
  if (const auto known = protocol::find_endpoint(endpoint)) {
    return std::string(protocol::endpoint_spec(*known).help);
  }
  return endpoint.empty() ? "-" : endpoint;
}

std::string target_label(const json& run) {
  const std::string url = view::text(run, "base_url");
  return (url.empty() ? std::string("-") : url) +
         (view::flag(run, "embedded_server") ? " (embedded simulated server)" : "");
}

// The requests asked for, from the configuration: "512 words in, 128 tokens out (max_tokens)",
// in the unit the lengths were counted in; a file's prompts (ShareGPT, JSONL, a trace) bring
// their own lengths, which --input-len does not set.
std::string workload_label(const json& run) {
  const json* config = view::object_at(run, "config");
  if (config == nullptr) return "";
  const std::string dataset = view::text(*config, "dataset");
  if (dataset == "sharegpt" || dataset == "jsonl" || dataset == "trace") {
    std::string label = dataset + " prompts, lengths from the file";
    if (view::flag(*config, "ignore_eos")) label += ", ignore_eos";
    return label;
  }
  const auto input = number(*config, "input_len");
  const auto output = number(*config, "output_len");
  if (!input && !output) return "";
  // Files from before input_len_unit counted words.
  const std::string unit = view::text(run, "input_len_unit");
  std::string label = fmt::format("{} {} in, {} tokens out (max_tokens)", view::fixed(input, 0),
                                  unit.empty() ? "words" : unit, view::fixed(output, 0));
  if (view::flag(*config, "ignore_eos")) label += ", ignore_eos";
  if (!dataset.empty() && dataset != "random") label += ", " + dataset + " prompts";
  return label;
}

std::string meta_item(std::string_view label, const std::string& value) {
  return fmt::format("<div><dt>{}</dt><dd>{}</dd></div>", label, esc(value));
}

std::string version_label(const json& results) {
  const std::string version = view::text(results, "bench_version");
  const std::string schema = view::text(results, "schema_version");
  return fmt::format("bench {}, results schema {}", version.empty() ? "(unknown)" : version,
                     schema.empty() ? "(unknown)" : schema);
}

// The answer check made before the run (report/answer_check.hpp): its summary in the page's
// header; nothing for a file written before bench made the check.
std::string answer_check_item(const json& results) {
  if (!results.contains(results::key::answer_check)) return "";
  const std::vector<std::string> lines = answer_check_lines(results[results::key::answer_check]);
  return meta_item("Answer check", lines.empty() ? "not made (--no-answer-check)" : lines.front());
}

// When the answers did not look like a model's work, an alert above every figure (the figures
// may be those of a server answering garbage fast), with what looked wrong in each answer.
std::string answer_check_alert(const json& results) {
  const json block = results.value(results::key::answer_check, json());
  if (!results::answer_check_implausible(block)) return "";
  const std::vector<std::string> lines = answer_check_lines(block);
  std::string out = "<div class=\"alert bad\" role=\"alert\">Answer check: " + esc(lines.front()) +
                    "<ul class=\"answers\">";
  for (std::size_t i = 1; i < lines.size(); ++i) {
    out += "<li>" + esc(util::trim(lines[i])) + "</li>";
  }
  return out + "</ul></div>";
}

std::string run_header(const json& run) {
  const std::string model = view::text(run, "model");
  std::string out = "<header class=\"page\"><p class=\"kicker\">bench results: single run</p>";
  out += "<h1>" + esc(model.empty() ? "(model not recorded)" : model) + "</h1><dl class=\"meta\">";
  out += meta_item("Target", target_label(run));
  out += meta_item("Endpoint", endpoint_label(run));
  out += meta_item("Load", load_label(run));
  out += meta_item("Requests", fmt::format("{} sent = {} completed + {} failed + {} cancelled",
                                           view::grouped(view::count(run, "sent")),
                                           view::grouped(view::count(run, "completed")),
                                           view::grouped(view::count(run, "failed")),
                                           view::grouped(view::count(run, "cancelled"))));
  if (const std::string workload = workload_label(run); !workload.empty()) {
    out += meta_item("Workload", workload);
  }
  out += meta_item("Warm-up", fmt::format("{} requests (excluded)",
                                          view::grouped(view::count(run, "warmup_requests"))));
  out += meta_item("Duration", fixed(number(run, "duration"), 2) + " s");
  const std::string started = view::text(run, "started_at");
  out += meta_item("Started", started.empty() ? "(not recorded)" : started);
  out += meta_item("Made by", version_label(run));
  out += answer_check_item(run);
  out += "</dl></header>";
  return out;
}

std::string sweep_header(const json& sweep, const json& first) {
  const std::string model = view::text(first, "model");
  const view::SweepAxis axis = view::sweep_axis(sweep);
  std::string values;
  const json* points = view::array_at(sweep, "points");
  const std::size_t n = points != nullptr ? points->size() : 0;
  for (std::size_t i = 0; i < n; ++i) {
    values += (i > 0 ? ", " : "") + axis.label(view::sweep_value(sweep, (*points)[i], i));
  }
  std::string out = fmt::format(
      "<header class=\"page\"><p class=\"kicker\">bench results: {} sweep, {} points</p>",
      axis.page_kind, n);
  out += "<h1>" + esc(model.empty() ? "(model not recorded)" : model) + "</h1><dl class=\"meta\">";
  out += meta_item("Target", target_label(first));
  out += meta_item("Endpoint", endpoint_label(first));
  out += meta_item(axis.values_title, values + std::string(axis.values_unit));
  // The points differ in their prompts, not in load: the one load they all ran is named.
  if (!axis.is_load) out += meta_item("Load (every point)", load_label(first));
  if (const std::string workload = workload_label(first); !workload.empty()) {
    out += meta_item("Workload", workload);
  }
  const std::string started = view::text(first, "started_at");
  out += meta_item("Started", started.empty() ? "(not recorded)" : started);
  out += meta_item("Made by", version_label(sweep.contains("bench_version") ? sweep : first));
  out += answer_check_item(sweep.contains(results::key::answer_check) ? sweep : first);
  out += "</dl></header>";
  return out;
}

std::string config_section(const json& run) {
  const json* config = view::object_at(run, "config");
  if (config == nullptr) return "";
  return "<details class=\"config\"><summary>Configuration (every option; API key redacted, "
         "header values not recorded)</summary><pre>" +
         esc(config->dump(2, ' ', false, json::error_handler_t::replace)) + "</pre></details>";
}

std::string definitions_section(const json& run) {
  const json* definitions = view::object_at(run, "definitions");
  if (definitions == nullptr || definitions->empty()) return "";
  std::string out =
      "<section class=\"card\" id=\"definitions\"><h2>What the figures mean</h2><dl "
      "class=\"defs\">";
  for (const auto& [name, text] : definitions->items()) {
    if (!text.is_string()) continue;
    out +=
        fmt::format("<dt><code>{}</code></dt><dd>{}</dd>", esc(name), esc(text.get<std::string>()));
  }
  return out + "</dl></section>";
}

std::string page_title(const json& results, bool sweep, const json& first) {
  const std::string model = view::text(first, "model");
  if (sweep) return fmt::format("bench sweep: {}", model.empty() ? "results" : model);
  return fmt::format("bench: {}, {} output tok/s", model.empty() ? "results" : model,
                     fixed(number(results, "output_throughput"), 1));
}

std::string document(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
         "<meta name=\"generator\" content=\"bench\"/><title>" +
         esc(title) + "</title><style>" + std::string(kStyle) + "</style></head><body><main>" +
         body +
         "<footer>Made by bench from a results file. Self-contained: inline SVG and CSS, no "
         "scripts, no network.</footer></main></body></html>\n";
}

}  // namespace
}  // namespace html

std::string render_html_report(const nlohmann::json& results, const nlohmann::json* peer_views) {
  if (!results.is_object()) {
    throw std::invalid_argument("results: expected a JSON object (a run or a sweep)");
  }
  if (view::is_sweep(results)) {
    const nlohmann::json* points = view::array_at(results, "points");
    if (points == nullptr) {
      throw std::invalid_argument("sweep results: \"points\" is missing or not an array");
    }
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& first =
        points->empty() || !(*points)[0].is_object() ? empty : (*points)[0];
    const nlohmann::json& with_definitions =
        view::object_at(results, "definitions") != nullptr ? results : first;
    const std::string body =
        html::sweep_header(results, first) +
        html::answer_check_alert(results.contains(results::key::answer_check) ? results : first) +
        html::sweep_sections(results) + html::config_section(first) +
        html::definitions_section(with_definitions);
    return html::document(html::page_title(results, true, first), body);
  }
  const std::string body = html::run_header(results) + html::answer_check_alert(results) +
                           html::run_alerts(results) + html::run_sections(results, "") +
                           (peer_views ? html::peer_views_section(*peer_views) : "") +
                           html::config_section(results) + html::definitions_section(results);
  return html::document(html::page_title(results, false, results), body);
}

}  // namespace bench::report
