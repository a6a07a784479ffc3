// One run's tables: the headline throughput (output first, input and total beside it, each with
// the source of its token counts; failures in the same table), the latency percentiles, the
// client-side figures, the token counts and the errors by class. Follows the text report's
// order (text_report.cpp) so the two read alike.
#include <cmath>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/run_metrics.hpp"

#include "bench/report/figure_words.hpp"
#include "bench/report/svg_chart.hpp"
#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {
namespace {

using view::fixed;
using view::number;

constexpr std::size_t kMaxSampleChars = 300;

constexpr std::string_view kLatencyStats[] = {"mean", "median", "p90", "p95", "p99", "max"};

std::string ms(const json& run, std::string_view key) { return fixed(number(run, key), 2); }

// One throughput row: label, whole-run value, steady-state value (when the run has a window),
// the unit (always naming the kind of token) and where its counts came from.
struct ThroughputRow {
  std::string css_class, label, whole, steady, unit, source;
};

std::string throughput_row(const ThroughputRow& row, bool with_steady) {
  std::string out = fmt::format("<tr{}><th scope=\"row\">{}</th><td class=\"num\">{}</td>",
                                row.css_class.empty() ? "" : " class=\"" + row.css_class + "\"",
                                row.label, row.whole);
  if (with_steady) out += fmt::format("<td class=\"num\">{}</td>", row.steady);
  out +=
      fmt::format("<td class=\"unit\">{}</td><td class=\"src\">{}</td></tr>", row.unit, row.source);
  return out;
}

std::string source_cell(const json& run, std::string_view kind) {
  const std::string label = view::token_source_label(run, kind);
  const bool alarming = label.find("ESTIMATE") != std::string::npos ||
                        label.find("UNKNOWN") != std::string::npos ||
                        label.find("unknown") != std::string::npos;
  return alarming ? "<span class=\"estimate\">" + esc(label) + "</span>" : esc(label);
}

// How much of the total is output: the figure a blended total hides (docs/metrics.md, Throughput).
std::string output_share(const json& run) {
  const auto output = number(run, "output_throughput");
  const auto total = number(run, "total_throughput");
  if (!output || !total || !(*total > 0) || !std::isfinite(*output / *total)) {
    return "the two above";
  }
  return fmt::format("the two above; output is {:.1f}% of it", 100.0 * *output / *total);
}

std::string errors_by_class_brief(const json& run) {
  const json* errors = view::object_at(run, "errors");
  if (errors == nullptr) return "";
  std::string out;
  for (const auto& [name, entry] : errors->items()) {
    const std::int64_t n = view::count(entry, "count");
    if (n <= 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", esc(name), view::grouped(n));
  }
  return out;
}

// The table's head: figure, whole run, the steady-state window when there is one, unit, source.
std::string throughput_head(const json* steady, std::string_view id_prefix) {
  std::string out = fmt::format(
      "<section class=\"card\" id=\"{}throughput\"><h2>Throughput</h2>"
      "<table class=\"headline\"><thead><tr><th scope=\"col\">figure</th>"
      "<th scope=\"col\" class=\"num\">whole run</th>",
      esc(id_prefix));
  if (steady != nullptr) {
    const std::string target =
        view::number(*steady, "target_in_flight")
            ? fmt::format(", in flight at least 90% of {}",
                          view::grouped(view::count(*steady, "target_in_flight")))
            : "";
    out += fmt::format(
        "<th scope=\"col\" class=\"num\">steady state<span class=\"sub\">{} s to {} s{}</span>"
        "</th>",
        fixed(number(*steady, "start_s"), 1), fixed(number(*steady, "end_s"), 1), esc(target));
  }
  out += "<th scope=\"col\">unit</th><th scope=\"col\">token counts from</th></tr></thead><tbody>";
  return out;
}

// Whether the server disclosed cached prompt tokens, and the cached share: the text report's
// "Prompt cache" line, read from the results (a file from before the split says nothing).
std::string prompt_cache_text(const json& run) {
  const std::string disclosure = view::text(run, results::key::input_split_disclosure);
  const auto share = results::known_metric(run, results::key::cached_input_share);
  const std::string cached = share ? fmt::format("{:.1f}% cached", *share * 100) : "n/a cached";
  std::string note;
  if (disclosure == "all") {
    note = "server disclosed cached tokens on all requests: " + cached;
  } else if (disclosure == "some") {
    const std::int64_t disclosing = view::count(run, results::key::input_split_disclosing_requests);
    note = fmt::format(
        "server disclosed cached tokens on {} of {} completed requests: {} (of "
        "theirs)",
        view::grouped(disclosing), view::grouped(view::count(run, "completed")), cached);
  } else if (disclosure == "none") {
    note =
        "server did not disclose cached prompt tokens (vLLM needs "
        "--enable-prompt-tokens-details)";
  } else {
    return "not recorded";
  }
  if (view::flag(run, results::key::reused_prompts)) {
    note += "; prompts reused on purpose (--reuse-prompts): cache-warm";
  }
  return esc(note);
}

// The computed and cached parts of the input figure: "n/a" unless every request disclosed them.
std::string input_split_rows(const json& run, bool with_steady) {
  const std::string disclosure = view::text(run, results::key::input_split_disclosure);
  if (disclosure.empty()) return "";  // a file from before the split
  const std::string source =
      disclosure == "all" ? "server usage (cached_tokens)"
                          : "<span class=\"estimate\">n/a: " +
                                std::string(disclosure == "some" ? "disclosed by some requests"
                                                                 : "not disclosed by the server") +
                                "</span>";
  auto value = [&](std::string_view key) {
    const auto figure = results::known_metric(run, key);
    return figure ? fixed(figure, 1) : std::string("n/a");
  };
  return throughput_row(
             {"", "&nbsp;&nbsp;computed (prefilled)",
              value(results::key::computed_input_throughput), "", "input tok/s (computed)", source},
             with_steady) +
         throughput_row(
             {"", "&nbsp;&nbsp;cached (prefix cache)", value(results::key::cached_input_throughput),
              "", "input tok/s (cached)", source},
             with_steady);
}

// Input and total: "n/a" when some request's input count is unknown, never 0 or a part (a
// total that silently equals output would read as a blended figure).
std::string input_and_total_rows(const json& run, const json* steady) {
  const bool with_steady = steady != nullptr;
  const bool input_unknown = !results::input_tokens_known(run);
  auto steady_value = [&](std::string_view key) {
    if (!with_steady) return std::string();
    return input_unknown ? std::string("n/a") : fixed(number(*steady, key), 1);
  };
  const json* sources = view::object_at(run, "token_count_source");
  const std::string input_source = sources != nullptr ? view::text(*sources, "input") : "";
  std::string out = throughput_row(
      {"", "Input token throughput",
       input_unknown ? fmt::format("n/a<span class=\"badge\">{}</span>",
                                   input_source == "unknown" ? "UNKNOWN" : "INCOMPLETE")
                     : fixed(number(run, "input_throughput"), 1),
       steady_value("input_throughput"), "input tok/s", source_cell(run, "input")},
      with_steady);
  out += input_split_rows(run, with_steady);
  out += throughput_row(
      {"", "Total token throughput",
       input_unknown ? std::string("n/a") : fixed(number(run, "total_throughput"), 1),
       steady_value("total_throughput"), "total tok/s (input + output)",
       input_unknown ? "<span class=\"estimate\">n/a: input tokens unknown</span>"
                     : output_share(run)},
      with_steady);
  return out;
}

// Reasoning models: the output figure's two parts, under it; none when no request reasoned
// (the keys are null then).
std::string reasoning_rows(const json& run, bool with_steady) {
  const auto reasoning = number(run, results::key::reasoning_output_throughput);
  if (!reasoning) return {};
  return throughput_row({"", "&nbsp;&nbsp;reasoning", fixed(reasoning, 1), "",
                         "output tok/s (reasoning)", source_cell(run, "reasoning")},
                        with_steady) +
         throughput_row({"", "&nbsp;&nbsp;answer",
                         fixed(number(run, results::key::answer_output_throughput), 1), "",
                         "output tok/s (answer)", "output - reasoning"},
                        with_steady);
}

// Tool calls: the output figure's tool-call part, under it; none when no request called a tool.
std::string tool_call_rows(const json& run, bool with_steady) {
  const auto tool_calls = number(run, results::key::tool_call_output_throughput);
  if (!tool_calls) return {};
  return throughput_row({"", "&nbsp;&nbsp;tool calls", fixed(tool_calls, 1), "",
                         "output tok/s (tool calls)", source_cell(run, "tool_calls")},
                        with_steady);
}

std::string throughput_section(const json& run, std::string_view id_prefix) {
  const json* steady = view::object_at(run, "steady_state");
  const bool with_steady = steady != nullptr;
  auto steady_value = [&](std::string_view key, int decimals) {
    return with_steady ? fixed(number(*steady, key), decimals) : std::string();
  };
  const std::int64_t sent = view::count(run, "sent");
  const std::int64_t failed = view::count(run, "failed");
  const std::int64_t cancelled = view::count(run, "cancelled");

  std::string out = throughput_head(steady, id_prefix);
  const bool estimate = view::output_is_estimate(run);
  out += throughput_row(
      {"headline", "Output token throughput",
       fixed(number(run, "output_throughput"), 1) +
           (estimate ? "<span class=\"badge\">ESTIMATE</span>" : ""),
       steady_value("output_throughput", 1), "output tok/s", source_cell(run, "output")},
      with_steady);
  out += reasoning_rows(run, with_steady);
  out += tool_call_rows(run, with_steady);
  out += input_and_total_rows(run, steady);
  out +=
      throughput_row({"", "Request throughput", fixed(number(run, "request_throughput"), 2),
                      steady_value("request_throughput", 2), "completed req/s", "successful only"},
                     with_steady);
  out += throughput_row({failed > 0 ? "bad" : "", "Failed requests",
                         fmt::format("{} of {}", view::grouped(failed), view::grouped(sent)), "",
                         view::percent(failed, sent) + " of sent",
                         failed > 0 ? errors_by_class_brief(run) : "none failed"},
                        with_steady);
  if (cancelled > 0) {
    out += throughput_row({"", "Cancelled by bench", view::grouped(cancelled), "", "requests",
                           "not failures; not counted"},
                          with_steady);
  }
  if (auto goodput = number(run, "goodput")) {
    out += throughput_row(
        {"", "Goodput", fixed(goodput, 2), "", "req/s meeting every SLO", "the --goodput SLOs"},
        with_steady);
  }
  out += throughput_row({"", "Achieved concurrency", fixed(number(run, "concurrency"), 1), "",
                         "requests in flight", "Little's law: sum(E2E) / duration"},
                        with_steady);
  out += "</tbody></table>";
  out += fmt::format(
      "<p class=\"note\">Over {} completed of {} sent requests in {} s (first measured request "
      "sent to last finished); warm-up excluded.</p></section>",
      view::grouped(view::count(run, "completed")), view::grouped(sent),
      fixed(number(run, "duration"), 2));
  return out;
}

// One entry of a card's <dl class="meta">.
std::string meta_entry(std::string_view label, const std::string& value) {
  return fmt::format("<div><dt>{}</dt><dd>{}</dd></div>", label, value);
}

std::string latency_section(const json& run, std::string_view id_prefix) {
  std::string out = fmt::format(
      "<section class=\"card\" id=\"{}latency\"><h2>Latency <span class=\"unit-h\">(ms)</span>"
      "</h2><table class=\"latency\"><thead><tr><th scope=\"col\">metric</th>",
      esc(id_prefix));
  for (std::string_view stat : kLatencyStats) {
    out += fmt::format("<th scope=\"col\" class=\"num\">{}</th>", stat);
  }
  out += "</tr></thead><tbody>";
  const bool streamed_none = results::streamed_none(run);
  for (const results::LatencyFigure& row : results::latency_figures()) {
    // A figure some runs lack (TTFA: null unless some request reasoned; TTFB: null when no
    // response reported it, absent in older files) has a row only where measured; one timed
    // from a stream's chunks none where nothing was streamed (the line below says so).
    if (row.row_only_when_measured && !number(run, results::distribution_key("mean", row.key))) {
      continue;
    }
    if (row.needs_stream && streamed_none) continue;
    // Every statistic 0 means no values (definitions: "0 when there are no values"), e.g. TPOT
    // when every output was one token: "-" then, not a 0.00 that reads like a measurement.
    bool any = false;
    for (std::string_view stat : kLatencyStats) {
      const auto v = number(run, results::distribution_key(stat, row.key));
      any = any || (v && *v != 0);
    }
    out += fmt::format("<tr><th scope=\"row\">{}<span class=\"sub\">{}</span></th>", row.label,
                       esc(row.caption));
    for (std::string_view stat : kLatencyStats) {
      out += fmt::format("<td class=\"num\">{}</td>",
                         any ? ms(run, results::distribution_key(stat, row.key)) : "-");
    }
    out += "</tr>";
  }
  out += "</tbody></table><dl class=\"meta compact\">";
  const std::string not_streamed = not_streamed_line(
      view::count(run, results::key::requests_not_streamed), view::count(run, "completed"));
  if (!not_streamed.empty()) out += meta_entry("Not streamed", esc(not_streamed));
  if (number(run, "median_ttft_from_intended_ms")) {
    out += meta_entry("TTFT from intended start",
                      fmt::format("p50 {} ms, p99 {} ms", ms(run, "median_ttft_from_intended_ms"),
                                  ms(run, "p99_ttft_from_intended_ms")));
  }
  if (number(run, "median_e2e_latency_from_intended_ms")) {
    out += meta_entry(
        "E2E from intended start",
        fmt::format("p50 {} ms, p99 {} ms", ms(run, "median_e2e_latency_from_intended_ms"),
                    ms(run, "p99_e2e_latency_from_intended_ms")));
  }
  if (number(run, "mean_schedule_lag_ms")) {
    out +=
        meta_entry("Schedule lag (client-side wait)",
                   fmt::format("mean {} ms, p99 {} ms, max {} ms", ms(run, "mean_schedule_lag_ms"),
                               ms(run, "p99_schedule_lag_ms"), ms(run, "max_schedule_lag_ms")));
  }
  if (number(run, "connections_opened")) {
    const std::int64_t opened = view::count(run, "connections_opened");
    out +=
        meta_entry("Connections opened",
                   opened > 0 ? fmt::format("{} (connect mean {} ms, p99 {} ms; inside their TTFT)",
                                            view::grouped(opened), ms(run, "mean_connect_ms"),
                                            ms(run, "p99_connect_ms"))
                              : std::string("0 (every request reused a kept-alive connection)"));
  }
  out += "</dl></section>";
  return out;
}

// The output's split: reasoning and answer tokens, tool-call tokens; nothing when none.
std::string output_split_items(const json& run) {
  std::string out;
  if (const auto reasoning = number(run, results::key::total_reasoning_tokens)) {
    out += meta_entry(
        "Reasoning + answer tokens",
        fmt::format("{} + {} <span class=\"src\">({}; {} requests reasoned, mean {} "
                    "reasoning tokens)</span>",
                    view::grouped(static_cast<std::int64_t>(*reasoning)),
                    view::grouped(view::count(run, results::key::total_answer_tokens)),
                    source_cell(run, "reasoning"),
                    view::grouped(view::count(run, results::key::requests_with_reasoning)),
                    view::length(number(run, results::key::mean_reasoning_tokens))));
  }
  if (const auto tool_tokens = number(run, results::key::total_tool_call_tokens)) {
    const auto share = number(run, results::key::tool_call_output_share);
    out += meta_entry(
        "Tool-call tokens",
        fmt::format("{} <span class=\"src\">({} of output; {}; {} calls in {} requests, mean "
                    "{} tokens)</span>",
                    view::grouped(static_cast<std::int64_t>(*tool_tokens)),
                    share ? fmt::format("{:.1f}%", *share * 100.0) : std::string("n/a"),
                    source_cell(run, "tool_calls"),
                    view::grouped(view::count(run, results::key::total_tool_calls)),
                    view::grouped(view::count(run, results::key::requests_with_tool_calls)),
                    view::length(number(run, results::key::mean_tool_call_tokens))));
  }
  return out;
}

// The mean input and output lengths, requested beside counted; nothing in files without them.
std::string mean_length_items(const json& run) {
  std::string out;
  if (number(run, "mean_requested_input_len")) {
    const bool input_known = results::input_tokens_known(run) &&
                             (view::token_source_label(run, "input") == "server usage" ||
                              view::count(run, "total_input_tokens") > 0);
    // Files from before input_len_unit counted words.
    const std::string unit = view::text(run, "input_len_unit");
    const auto client = number(run, "mean_client_prompt_tokens");
    out += meta_entry(
        "Mean input length",
        fmt::format(
            "requested {} {}, {}{}", view::length(number(run, "mean_requested_input_len")),
            unit.empty() ? "words" : unit,
            client ? "tokenizer counted " + view::length(client) + " tokens, " : std::string(),
            input_known
                ? "server counted " + view::length(number(run, "mean_prompt_tokens")) + " tokens"
                : std::string("server count unknown")));
  }
  if (number(run, "mean_requested_output_len")) {
    out += meta_entry(
        "Mean output length",
        fmt::format(
            "requested {} tokens (max_tokens), received {} tokens{}",
            view::length(number(run, "mean_requested_output_len")),
            view::length(number(run, "mean_completion_tokens")),
            view::output_is_estimate(run) ? " <span class=\"estimate\">ESTIMATE</span>" : ""));
  }
  return out;
}

std::string token_counts_section(const json& run, std::string_view id_prefix) {
  std::string out = fmt::format(
      "<section class=\"card\" id=\"{}tokens\"><h2>Token counts</h2><dl class=\"meta\">",
      esc(id_prefix));
  out += meta_entry("Output tokens",
                    fmt::format("{} <span class=\"src\">({})</span>",
                                view::grouped(view::count(run, "total_output_tokens")),
                                source_cell(run, "output")));
  out += meta_entry("Input tokens",
                    fmt::format("{} <span class=\"src\">({})</span>",
                                results::input_tokens_known(run)
                                    ? view::grouped(view::count(run, "total_input_tokens"))
                                    : std::string("n/a"),
                                source_cell(run, "input")));
  out += output_split_items(run);
  out += meta_entry("Prompt cache", prompt_cache_text(run));
  if (const auto images = results::image_input_split_of(run)) {
    out += meta_entry("Input: text + images", image_input_split_line(*images));
  }
  out += mean_length_items(run);
  if (number(run, "total_text_chunks")) {
    out += meta_entry("Text chunks", view::grouped(view::count(run, "total_text_chunks")));
  }
  out += "</dl>";
  if (view::flag(run, "chunks_differ_from_tokens")) {
    out += fmt::format(
        "<p class=\"alert info\">Chunks are not tokens: {} text chunks carried {} tokens. ITL "
        "splits each chunk's gap over its tokens ({}); ICL is the gap per chunk.</p>",
        view::grouped(view::count(run, "total_text_chunks")),
        view::grouped(view::count(run, "total_output_tokens")),
        view::flag(run, "itl_estimated") ? "ESTIMATED from completion_tokens / chunks"
                                         : "exact, from per-chunk usage");
  }
  out += "</section>";
  return out;
}

std::string errors_section(const json& run, std::string_view id_prefix) {
  const json* errors = view::object_at(run, "errors");
  std::string rows;
  if (errors != nullptr) {
    for (const auto& [name, entry] : errors->items()) {
      const std::int64_t n = view::count(entry, "count");
      if (n <= 0) continue;
      std::string samples;
      if (const json* list = view::array_at(entry, "samples")) {
        for (const json& sample : *list) {
          if (!sample.is_string()) continue;
          samples += "<li><code>" + esc(clipped(sample.get<std::string>(), kMaxSampleChars)) +
                     "</code></li>";
        }
      }
      rows += fmt::format(
          "<tr><th scope=\"row\"><code>{}</code></th><td class=\"num\">{}</td><td>{}</td></tr>",
          esc(name), view::grouped(n),
          samples.empty() ? "" : "<ul class=\"samples\">" + samples + "</ul>");
    }
  }
  if (rows.empty()) {
    if (view::count(run, "failed") > 0) {
      return fmt::format(
          "<section class=\"card\" id=\"{}errors\"><h2>Errors</h2><p class=\"alert bad\">{} "
          "requests failed; this file records no classes for them.</p></section>",
          esc(id_prefix), view::grouped(view::count(run, "failed")));
    }
    return "";
  }
  return fmt::format(
      "<section class=\"card\" id=\"{}errors\"><h2>Errors by class</h2><table class=\"errors\">"
      "<thead><tr><th scope=\"col\">class</th><th scope=\"col\" class=\"num\">requests</th>"
      "<th scope=\"col\">samples (server's messages, first few)</th></tr></thead><tbody>{}"
      "</tbody></table></section>",
      esc(id_prefix), rows);
}

std::string charts_section(const json& run, std::string_view id_prefix) {
  const std::string prefix(id_prefix);
  std::string cdfs =
      cdf_figure(run, "ttft", prefix + "cdf-ttft") + cdf_figure(run, "itl", prefix + "cdf-itl");
  std::string timeline = token_timeline_figure(run, prefix + "timeline-tokens") +
                         requests_timeline_figure(run, prefix + "timeline-requests");
  std::string out;
  if (!cdfs.empty()) {
    out += fmt::format(
        "<section class=\"card\" id=\"{}distributions\"><h2>Latency distributions</h2>"
        "<div class=\"charts\">{}</div></section>",
        esc(id_prefix), cdfs);
  }
  if (!timeline.empty()) {
    out += fmt::format(
        "<section class=\"card\" id=\"{}timeline\"><h2>Timeline</h2><div class=\"charts one\">{}"
        "</div></section>",
        esc(id_prefix), timeline);
  }
  return out;
}

}  // namespace

std::string clipped(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (chars++ == max_chars) return std::string(text.substr(0, i)) + "...";
  }
  return std::string(text);
}

std::string run_alerts(const json& run) {
  std::string out;
  const std::int64_t sent = view::count(run, "sent");
  const std::int64_t failed = view::count(run, "failed");
  if (failed > 0) {
    out += fmt::format(
        "<p class=\"alert bad\" role=\"alert\">{} of {} requests failed ({}). Throughput counts "
        "the {} successful requests only.</p>",
        view::grouped(failed), view::grouped(sent), view::percent(failed, sent),
        view::grouped(view::count(run, "completed")));
  }
  if (view::flag(run, "interrupted")) {
    out += "<p class=\"alert warn\">The run was interrupted: these are partial results.</p>";
  }
  if (const json* warnings = view::array_at(run, results::key::warnings)) {
    for (const json& warning : *warnings) {
      if (warning.is_string()) {
        out += "<p class=\"alert warn\">" + esc(warning.get<std::string>()) + "</p>";
      }
    }
  }
  if (view::output_is_estimate(run)) {
    out +=
        "<p class=\"alert warn\">Output token counts are ESTIMATES (the number of streamed "
        "chunks): the server sent no usage for some or all requests.</p>";
  }
  const json* sources = view::object_at(run, "token_count_source");
  if (sources != nullptr && view::text(*sources, "input") == "unknown") {
    out +=
        "<p class=\"alert warn\">Input token counts are UNKNOWN (the server sent no "
        "prompt_tokens): input and total tok/s are n/a.</p>";
  }
  return out;
}

std::string load_label(const json& run) {
  const auto rate = number(run, "request_rate");
  // null: nothing capped the requests in flight (an open loop without --concurrency).
  const bool uncapped = run.contains("max_concurrency") && run["max_concurrency"].is_null();
  const std::string concurrency =
      number(run, "max_concurrency")
          ? view::grouped(view::count(run, "max_concurrency")) + " max in flight"
          : std::string(uncapped ? "no cap on requests in flight" : "not recorded");
  const std::string ramp = view::text(run, "ramp_up_strategy");
  if (!ramp.empty()) {
    return fmt::format("ramp-up, {} from {} to {} req/s, {}", ramp,
                       view::value_label(number(run, "ramp_up_start_rps")),
                       view::value_label(number(run, "ramp_up_end_rps")), concurrency);
  }
  if (!rate || std::isinf(*rate)) {
    return concurrency + (rate ? " (closed loop, no rate limit)" : "");
  }
  return fmt::format("{} req/s offered, {}", view::value_label(rate), concurrency);
}

std::string run_sections(const json& run, std::string_view id_prefix) {
  return throughput_section(run, id_prefix) + efficiency_section(run, id_prefix) +
         latency_section(run, id_prefix) + charts_section(run, id_prefix) +
         token_counts_section(run, id_prefix) + errors_section(run, id_prefix) +
         per_server_section(run, id_prefix) + multi_turn_section(run, id_prefix) +
         agent_trace_section(run, id_prefix) + server_section(run, id_prefix);
}

}  // namespace bench::report::html
