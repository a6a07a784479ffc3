#include "bench/results/server_section.hpp"

#include "server_findings.hpp"
#include "server_gauges.hpp"
#include "server_latency.hpp"

#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace bench::results {
namespace {

using nlohmann::json;

// Beyond this share, a difference between the server's and bench's token counts is a finding:
// one of the two miscounts, or other clients share the server.
constexpr double kTokenMismatchShare = 0.01;

std::string count_text(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? fmt::format("{:.0f}", *value) : "n/a";
}

// bench's input tokens are unknown when some successful request's prompt_tokens were.
std::optional<double> bench_input_tokens(const metrics::RunSummary& summary) {
  if (!summary.input_tokens_known()) return std::nullopt;
  return static_cast<double>(summary.total_input_tokens);
}

std::optional<double> difference(const std::optional<double>& server,
                                 const std::optional<double>& bench) {
  if (!server || !bench || !std::isfinite(*server)) return std::nullopt;
  return *server - *bench;
}

// "12000 (bench: 11800 input tokens; the server counted 200 more, +1.7%)".
std::string held_against(const std::optional<double>& server, const std::optional<double>& bench,
                         std::string_view kind) {
  const auto diff = difference(server, bench);
  if (!diff) {
    return fmt::format("{} (bench: {} {} tokens)", count_text(server), count_text(bench), kind);
  }
  if (*diff == 0) {
    return fmt::format("{} (bench: the same count of {} tokens)", count_text(server), kind);
  }
  const std::string share =
      *bench > 0 ? fmt::format(", {:+.1f}%", *diff / *bench * 100) : std::string();
  return fmt::format("{} (bench: {} {} tokens; the server counted {:.0f} {}{})", count_text(server),
                     count_text(bench), kind, std::abs(*diff), *diff > 0 ? "more" : "fewer", share);
}

std::optional<std::string> mismatch_warning(const std::optional<double>& server,
                                            const std::optional<double>& bench,
                                            std::string_view server_kind,
                                            std::string_view bench_kind) {
  const auto diff = difference(server, bench);
  if (!diff || !(*bench > 0) || std::abs(*diff) <= kTokenMismatchShare * *bench) {
    return std::nullopt;
  }
  return fmt::format(
      "WARNING: the server's {} tokens differ from bench's {} tokens by {:+.1f}%: "
      "one of the two miscounts, or other clients share the server",
      server_kind, bench_kind, *diff / *bench * 100);
}

// "75.0% of drafted tokens accepted (600 of 800)"; SGLang's gauges instead of counters.
std::optional<std::string> spec_decode_text(const server_metrics::Delta& delta) {
  const auto rate = server_metrics::spec_acceptance_rate(delta);
  if (delta.spec_draft_tokens && delta.spec_accepted_tokens) {
    if (!rate) return "no tokens drafted in the window";
    return fmt::format("{:.1f}% of drafted tokens accepted ({} of {})", *rate * 100,
                       count_text(delta.spec_accepted_tokens), count_text(delta.spec_draft_tokens));
  }
  if (!delta.spec_accept_length && !rate) return std::nullopt;
  std::string text = "at the window's end:";
  if (delta.spec_accept_length) {
    text += fmt::format(" {:.2f} tokens accepted a step", *delta.spec_accept_length);
  }
  if (rate)
    text += fmt::format("{} acceptance {:.1f}%", delta.spec_accept_length ? "," : "", *rate * 100);
  return text;
}

// null when the server says nothing of speculative decoding.
json spec_decode_json(const server_metrics::Delta& delta) {
  const auto rate = server_metrics::spec_acceptance_rate(delta);
  if (!delta.spec_draft_tokens && !delta.spec_accepted_tokens && !delta.spec_accept_length &&
      !rate) {
    return nullptr;
  }
  return {{"draft_tokens", number_or_null(delta.spec_draft_tokens)},
          {"accepted_tokens", number_or_null(delta.spec_accepted_tokens)},
          {"acceptance_rate", number_or_null(rate)},
          {"accept_length", number_or_null(delta.spec_accept_length)}};
}

// Several servers: one line each of its own counts, and its polled gauges.
void append_each_server(const std::vector<ServerMetricsWindow>& servers,
                        std::vector<ServerLine>& lines) {
  for (std::size_t i = 0; i < servers.size(); ++i) {
    const ServerMetricsWindow& server = servers[i];
    const std::string who = fmt::format("server {}", i + 1);
    if (!server.delta) {
      lines.push_back({fmt::format("Server {}", i + 1), "unavailable: " + server.failure});
      continue;
    }
    lines.push_back({fmt::format("Server {}", i + 1),
                     fmt::format("{} ({}): {} prompt, {} generation tokens", server.url,
                                 server_metrics::to_string(server.delta->family),
                                 count_text(server.delta->prompt_tokens),
                                 count_text(server.delta->generation_tokens))});
    if (server.polls) append_gauge_lines(*server.polls, lines, who);
  }
}

std::vector<ServerLine> window_lines(const ServerMetricsWindow& window,
                                     const metrics::RunSummary& summary, bool sharing_intended) {
  std::vector<ServerLine> lines;
  if (!window.delta) {
    lines.push_back({"Server metrics", "unavailable: " + window.failure});
    return lines;
  }
  const server_metrics::Delta& delta = *window.delta;
  const std::optional<double> bench_output = static_cast<double>(summary.total_output_tokens);
  lines.push_back({"Scraped", fmt::format("{} ({}), {} and after its last request", window.url,
                                          server_metrics::to_string(delta.family),
                                          window.warmup_drained ? "once the warm-up had drained"
                                                                : "before the point")});
  lines.push_back({"Prompt tokens (server)",
                   held_against(delta.prompt_tokens, bench_input_tokens(summary), "input")});
  lines.push_back({"Generation tokens (server)",
                   held_against(delta.generation_tokens, bench_output, "output")});
  lines.push_back({"Requests succeeded (server)", count_text(delta.requests_succeeded)});
  if (delta.prefix_cache_query_tokens) {
    lines.push_back({"Prefix-cache hits (server)",
                     fmt::format("{} of {} prompt tokens looked up (bench: {} cached input "
                                 "tokens)",
                                 count_text(delta.prefix_cache_hit_tokens),
                                 count_text(delta.prefix_cache_query_tokens),
                                 count_text(bench_cached_tokens(summary)))});
  }
  if (delta.prefix_cache_hit_ratio) {
    const std::optional<double> share = bench_cached_share(summary);
    lines.push_back({"Prefix-cache hit rate (server)",
                     fmt::format("{:.1f}% (a gauge of its latest prefill batches, after the last "
                                 "request; bench: {} of input tokens cached)",
                                 *delta.prefix_cache_hit_ratio * 100,
                                 share ? fmt::format("{:.1f}%", *share * 100) : "n/a")});
  }
  lines.push_back({"Preemptions (server)", count_text(delta.preemptions)});
  if (auto spec = spec_decode_text(delta)) {
    lines.push_back({"Speculative decoding (server)", *spec});
  }
  if (window.polls) append_gauge_lines(*window.polls, lines);
  append_latency_lines(latency_ranges(delta, summary), mean_queue_time_s(delta), lines);
  if (auto warning =
          mismatch_warning(delta.generation_tokens, bench_output, "generation", "output")) {
    lines.push_back({"", *warning});
  }
  if (auto warning =
          mismatch_warning(delta.prompt_tokens, bench_input_tokens(summary), "prompt", "input")) {
    lines.push_back({"", *warning});
  }
  for (std::string& finding : prefix_cache_findings(delta, summary, sharing_intended)) {
    lines.push_back({"", std::move(finding)});
  }
  if (window.warmup_requests > 0) {
    lines.push_back({"", fmt::format("Note: the server's counts include the {} warm-up "
                                     "request(s); bench's do not.",
                                     window.warmup_requests)});
  }
  for (const std::string& note : delta.notes) lines.push_back({"", "Note: " + note});
  return lines;
}

// What one server's window says of itself, without bench's figures beside it.
json own_figures_json(const ServerMetricsWindow& window) {
  json out = json::object();
  out["url"] = window.url;
  out["error"] = window.delta ? json(nullptr) : json(window.failure);
  const server_metrics::Delta delta = window.delta.value_or(server_metrics::Delta{});
  out["family"] = window.delta ? json(server_metrics::to_string(delta.family)) : json(nullptr);
  out["prompt_tokens"] = number_or_null(delta.prompt_tokens);
  out["generation_tokens"] = number_or_null(delta.generation_tokens);
  out["requests_succeeded"] = number_or_null(delta.requests_succeeded);
  out["prefix_cache_hit_tokens"] = number_or_null(delta.prefix_cache_hit_tokens);
  out["prefix_cache_query_tokens"] = number_or_null(delta.prefix_cache_query_tokens);
  out["prefix_cache_hit_rate"] = number_or_null(delta.prefix_cache_hit_ratio);
  out["preemptions"] = number_or_null(delta.preemptions);
  out["mean_queue_time_s"] = number_or_null(mean_queue_time_s(delta));
  out["spec_decode"] = spec_decode_json(delta);
  out["gauges"] = window.polls ? gauges_json(*window.polls) : json(nullptr);
  out["notes"] = delta.notes;
  return out;
}

}  // namespace

std::vector<ServerLine> server_section_lines(const ServerMetricsWindow& window,
                                             const metrics::RunSummary& summary,
                                             bool sharing_intended) {
  std::vector<ServerLine> lines = window_lines(window, summary, sharing_intended);
  append_each_server(window.servers, lines);
  return lines;
}

namespace {

// The cross-checks' findings beyond the token counts (server_findings.hpp), for the HTML report.
json findings_json(const ServerMetricsWindow& window, const metrics::RunSummary& summary,
                   bool sharing_intended) {
  json findings = json::array();
  if (window.delta) {
    for (const std::string& finding :
         prefix_cache_findings(*window.delta, summary, sharing_intended)) {
      findings.push_back(finding);
    }
  }
  if (window.polls) {
    for (const std::string& finding : queue_findings(window.polls->queue, "server")) {
      findings.push_back(finding);
    }
  }
  for (std::size_t i = 0; i < window.servers.size(); ++i) {
    if (!window.servers[i].polls) continue;
    for (const std::string& finding :
         queue_findings(window.servers[i].polls->queue, fmt::format("server {}", i + 1))) {
      findings.push_back(finding);
    }
  }
  return findings;
}

}  // namespace

json server_metrics_json(const ServerMetricsWindow& window, const metrics::RunSummary& summary,
                         bool sharing_intended) {
  json out = own_figures_json(window);
  const server_metrics::Delta delta = window.delta.value_or(server_metrics::Delta{});
  const std::optional<double> bench_input = bench_input_tokens(summary);
  const std::optional<double> bench_output = static_cast<double>(summary.total_output_tokens);
  out["bench_input_tokens"] = number_or_null(bench_input);
  out["bench_output_tokens"] = number_or_null(bench_output);
  out["prompt_tokens_difference"] = number_or_null(difference(delta.prompt_tokens, bench_input));
  out["generation_tokens_difference"] =
      number_or_null(difference(delta.generation_tokens, bench_output));
  const std::optional<double> bench_cached = bench_cached_tokens(summary);
  out["bench_cached_input_tokens"] = number_or_null(bench_cached);
  out["prefix_cache_hit_difference"] =
      number_or_null(difference(delta.prefix_cache_hit_tokens, bench_cached));
  const std::optional<double> bench_share = bench_cached_share(summary);
  out["bench_cached_input_share"] = number_or_null(bench_share);
  out["prefix_cache_hit_rate_difference"] =
      number_or_null(difference(delta.prefix_cache_hit_ratio, bench_share));
  out["findings"] = findings_json(window, summary, sharing_intended);
  out["warmup_requests_in_window"] = window.warmup_requests;
  out["warmup_drained"] = window.warmup_drained;
  out["latency_ranges"] = latency_ranges_json(latency_ranges(delta, summary));
  if (!window.servers.empty()) {
    out["servers"] = json::array();
    for (const ServerMetricsWindow& server : window.servers) {
      out["servers"].push_back(own_figures_json(server));
    }
  }
  return out;
}

json number_or_null(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

}  // namespace bench::results
