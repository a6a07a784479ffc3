// The run's "Server" table, from the results' server_metrics (--server-metrics): the server's
// own counts over the window beside bench's, its polled gauges, the bucket ranges of its TTFT,
// E2E, ITL and TPOT beside bench's percentiles (and of its queue time alone), and the
// cross-checks' findings. Reads the JSON written by results/server_section.cpp, so a results file
// renders the same as the run that wrote it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "bench/results/server_section.hpp"
#include "html_parts.hpp"
#include "results_view.hpp"
#include "server_latency_words.hpp"

namespace bench::report::html {
namespace {

using view::number;

// Unknown is said as unknown, never 0.
std::string count_cell(const json& object, std::string_view key) {
  const auto value = number(object, key);
  return value ? view::fixed(value, 0) : "n/a";
}

std::string row(std::string_view figure, const std::string& server, const std::string& bench) {
  return fmt::format(
      "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td></tr>",
      figure, server, bench);
}

std::string gauge_cell(const json* gauges, std::string_view key, bool as_percent) {
  const json* stat = gauges == nullptr ? nullptr : view::object_at(*gauges, key);
  const auto mean = stat == nullptr ? std::nullopt : number(*stat, "mean");
  if (!mean) return "n/a";
  const auto max = number(*stat, "max");
  if (as_percent) {
    return fmt::format("mean {}%, max {}%", view::fixed(*mean * 100, 1),
                       view::fixed(max ? std::optional<double>(*max * 100) : std::nullopt, 1));
  }
  return fmt::format("mean {}, max {}", view::fixed(mean, 1), view::fixed(max, 0));
}

std::string range_cell(const json& range) {
  const auto lower = number(range, "server_lower_s");
  if (!lower) return "n/a";
  const auto upper = number(range, "server_upper_s");  // "inf" reads as infinity
  if (!upper || std::isinf(*upper)) return fmt::format("above {:g} s", *lower);
  return fmt::format("{:g}-{:g} s", *lower, *upper);
}

// One row per percentile of each latency the server exposes (results/server_latency.hpp); a latency
// bench has no counterpart of (queue time: no bench_s key) leaves bench's cell empty, and the
// server's exact mean queue time follows its percentiles.
std::string latency_rows(const json& server, std::string& findings) {
  const json* ranges = view::object_at(server, "latency_ranges");
  if (ranges == nullptr) return "";
  std::string out;
  for (const LatencyWords& words : kLatencyWords) {
    const std::string_view label = words.label;
    const json* percentiles = view::object_at(*ranges, words.key);
    if (percentiles == nullptr) continue;
    for (const char* p : {"p50", "p99"}) {
      const json* range = view::object_at(*percentiles, p);
      if (range == nullptr) continue;
      const bool has_bench = range->contains("bench_s");
      const auto bench = number(*range, "bench_s");
      const std::string bench_text = !has_bench ? ""
                                     : bench    ? fmt::format("{:.3g} s", *bench)
                                                : "n/a";
      out += row(fmt::format("{} {}", p, label), range_cell(*range), bench_text);
      if (range->value("bench_inside", json()) == json(false)) {
        findings += fmt::format(
            "<p class=\"alert warn\">bench's {} {} ({}) is outside the server's range ({}).</p>", p,
            label, bench_text, range_cell(*range));
      }
    }
  }
  if (const auto mean_queue = number(server, "mean_queue_time_s")) {
    out += row("Mean queue time", fmt::format("{:.3g} s", *mean_queue), "");
  }
  return out;
}

// The server's and bench's token counts apart beyond results::counts_disagree's share: a finding.
std::string mismatch_alert(const json& server, std::string_view difference_key,
                           std::string_view bench_key, std::string_view kind) {
  const auto difference = number(server, difference_key);
  const auto bench = number(server, bench_key);
  if (!results::counts_disagree(difference, bench)) return "";
  return fmt::format(
      "<p class=\"alert bad\">The server's {} tokens differ from bench's by "
      "{:+.1f}%: one of the two miscounts, or other clients share the server.</p>",
      kind, *difference / *bench * 100);
}

// Speculative decoding's acceptance, where the server exposes it (results/server_section.cpp).
std::string spec_decode_row(const json& server) {
  const json* spec = view::object_at(server, "spec_decode");
  if (spec == nullptr) return "";
  const auto rate = number(*spec, "acceptance_rate");
  std::string text = rate ? fmt::format("{}% accepted", view::fixed(*rate * 100, 1)) : "n/a";
  const auto drafted = number(*spec, "draft_tokens");
  if (drafted) {
    text += fmt::format(" ({} of {} drafted tokens)", count_cell(*spec, "accepted_tokens"),
                        view::fixed(drafted, 0));
  }
  if (const auto length = number(*spec, "accept_length")) {
    text += fmt::format(", {} tokens a step", view::fixed(*length, 2));
  }
  return row("Speculative decoding", text, "");
}

// One column of the gauges' series; an unknown reading (null) is a gap in the line.
std::vector<double> series_column(const json& series, std::string_view key, double scale) {
  std::vector<double> values;
  const json* column = view::array_at(series, key);
  if (column == nullptr) return values;
  for (const json& value : *column) {
    values.push_back(value.is_number() ? value.get<double>() * scale
                                       : std::numeric_limits<double>::quiet_NaN());
  }
  return values;
}

svg::Chart gauge_chart(std::string id, std::string title, std::string description,
                       std::string y_label) {
  svg::Chart chart;
  chart.id = std::move(id);
  chart.title = std::move(title);
  chart.description = std::move(description);
  chart.x.label = "time since the window opened (s)";
  chart.y.label = std::move(y_label);
  chart.y.include_zero = true;
  chart.width_px = 540;
  chart.height_px = 300;
  return chart;
}

// The polled gauges over the window (server_gauges.cpp's "series"): running and waiting
// requests on one chart, KV-cache usage on another; nothing when there are fewer than two polls.
std::string gauge_figures(const json* gauges, std::string_view id_prefix) {
  const json* series = gauges == nullptr ? nullptr : view::object_at(*gauges, "series");
  if (series == nullptr) return "";
  const std::vector<double> t_s = series_column(*series, "t_s", 1);
  if (t_s.size() < 2) return "";
  const std::string note =
      number(*series, "readings_per_point").value_or(1) > 1
          ? fmt::format("each point the mean of {:g} polls", *number(*series, "readings_per_point"))
          : std::string();
  svg::Chart requests = gauge_chart(
      std::string(id_prefix) + "server-requests", "Server: running and waiting requests",
      "Requests the server had running and waiting at each poll of its metrics.", "requests");
  requests.series.push_back({.name = "running",
                             .x = t_s,
                             .y = series_column(*series, "requests_running", 1),
                             .color = kOutputColor});
  requests.series.push_back({.name = "waiting",
                             .x = t_s,
                             .y = series_column(*series, "requests_waiting", 1),
                             .color = "#c2410c"});
  requests.note = note;
  std::string out = "<figure>" + svg::render_chart(requests) + "</figure>";
  std::vector<double> kv = series_column(*series, "kv_cache_usage", 100);
  if (std::any_of(kv.begin(), kv.end(), [](double v) { return std::isfinite(v); })) {
    svg::Chart usage = gauge_chart(std::string(id_prefix) + "server-kv", "Server: KV-cache usage",
                                   "The share of the server's KV cache in use at each poll.",
                                   "KV-cache usage (%)");
    usage.y.max = 100;
    usage.series.push_back(
        {.name = "KV-cache usage", .x = t_s, .y = std::move(kv), .color = "#2a8c8c"});
    usage.note = note;
    out += "<figure>" + svg::render_chart(usage) + "</figure>";
  }
  return "<div class=\"charts\">" + out + "</div>";
}

}  // namespace

std::string server_section(const json& run, std::string_view id_prefix) {
  const json* server = view::object_at(run, "server_metrics");
  if (server == nullptr) return "";
  std::string out = fmt::format(
      "<section class=\"card\" id=\"{}server\"><h2>Server <span class=\"unit-h\">(its own "
      "metrics, {})</span></h2>",
      esc(id_prefix), esc(view::text(*server, "url")));
  if (const std::string error = view::text(*server, "error"); !error.empty()) {
    return out + "<p class=\"alert warn\">Server metrics unavailable: " + esc(error) +
           "</p></section>";
  }
  const json* gauges = view::object_at(*server, "gauges");
  std::string findings;
  out +=
      "<table class=\"server\"><thead><tr><th scope=\"col\">figure</th>"
      "<th scope=\"col\">server</th><th scope=\"col\">bench</th></tr></thead><tbody>";
  out += row("Prompt tokens", count_cell(*server, "prompt_tokens"),
             count_cell(*server, "bench_input_tokens"));
  out += row("Generation tokens", count_cell(*server, "generation_tokens"),
             count_cell(*server, "bench_output_tokens"));
  out += row("Requests succeeded", count_cell(*server, "requests_succeeded"),
             count_cell(run, "completed"));
  out += row("Preemptions", count_cell(*server, "preemptions"), "");
  out += spec_decode_row(*server);
  out += row("Running requests", gauge_cell(gauges, "requests_running", false), "");
  out += row("Waiting requests", gauge_cell(gauges, "requests_waiting", false), "");
  out += row("KV-cache usage", gauge_cell(gauges, "kv_cache_usage", true), "");
  out += latency_rows(*server, findings);
  out += "</tbody></table>";
  out +=
      mismatch_alert(*server, "generation_tokens_difference", "bench_output_tokens", "generation");
  out += mismatch_alert(*server, "prompt_tokens_difference", "bench_input_tokens", "prompt");
  out += findings;
  out += gauge_figures(gauges, id_prefix);
  if (const json* more = view::array_at(*server, "findings")) {
    for (const json& finding : *more) {
      if (!finding.is_string()) continue;
      const std::string text = finding.get<std::string>();
      const bool warning = text.rfind("WARNING", 0) == 0;
      out += fmt::format("<p class=\"alert {}\">{}</p>", warning ? "bad" : "info", esc(text));
    }
  }
  if (const json* notes = view::array_at(*server, "notes")) {
    for (const json& note : *notes) {
      if (note.is_string())
        out += "<p class=\"alert info\">" + esc(note.get<std::string>()) + "</p>";
    }
  }
  return out + "</section>";
}

}  // namespace bench::report::html
