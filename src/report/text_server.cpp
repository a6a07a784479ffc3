// The text report's "Server" section (--server-metrics): the server's counts over the point's
// window held against bench's, its polled gauges, its latencies (text_server_latency.cpp), and
// the findings and notes, worded here from the figures results/server_section.hpp computes.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/results/server_findings.hpp"
#include "bench/results/server_latency.hpp"
#include "bench/results/server_section.hpp"
#include "text_writer.hpp"

namespace bench::report::text {
namespace {

using results::count_difference;
using results::GaugePolls;
using results::ServerMetricsWindow;
using server_metrics::GaugePoint;
using server_metrics::GaugeStat;

std::string count_text(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? fmt::format("{:.0f}", *value) : "n/a";
}

// "12000 (bench: 11800 input tokens; the server counted 200 more, +1.7%)".
std::string held_against(const std::optional<double>& server, const std::optional<double>& bench,
                         std::string_view kind) {
  const auto diff = count_difference(server, bench);
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
  const auto diff = count_difference(server, bench);
  if (!results::counts_disagree(diff, bench)) return std::nullopt;
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

// Counts of requests read as "3.2"; a usage ratio as a percentage.
std::string stat_text(const GaugeStat& stat, bool as_percent) {
  if (!stat.mean()) return "n/a";
  if (as_percent)
    return fmt::format("mean {:.1f}%, max {:.1f}%", *stat.mean() * 100, *stat.maximum() * 100);
  return fmt::format("mean {:.1f}, max {:.0f}", *stat.mean(), *stat.maximum());
}

// "Running requests (server): mean 3.2, max 4 (12 polls, every 1 s)" and the like, then one note
// each for failed and skipped polls, then the queueing findings. `who` names the server in the
// labels: "server", or "server 2" of several.
void write_gauges(Writer& w, const GaugePolls& polls, std::string_view who) {
  const GaugePoint& totals = polls.series.totals();
  const std::string polled = fmt::format("{} poll{}, every {:g} s", totals.readings,
                                         totals.readings == 1 ? "" : "s", polls.interval_s);
  w.field(fmt::format("Running requests ({})", who),
          fmt::format("{} ({})", stat_text(totals.requests_running, false), polled));
  w.field(fmt::format("Waiting requests ({})", who), stat_text(totals.requests_waiting, false));
  w.field(fmt::format("KV-cache usage ({})", who), stat_text(totals.kv_cache_usage_ratio, true));
  if (polls.failed > 0) {
    w.text(fmt::format("Note: {} of {} polls of the {} failed; the first: {}", polls.failed,
                       polls.polls, who, polls.first_failure));
  }
  if (polls.skipped > 0) {
    w.text(
        fmt::format("Note: {} poll(s) of the {} skipped: a scrape took up to "
                    "{:.2f} s, longer than the {:g} s interval",
                    polls.skipped, who, polls.slowest_scrape_s, polls.interval_s));
  }
  for (const std::string& finding : results::queue_findings(polls.queue, who)) w.text(finding);
}

// Several servers: one line each of its own counts, and its polled gauges.
void write_each_server(Writer& w, const std::vector<ServerMetricsWindow>& servers) {
  for (std::size_t i = 0; i < servers.size(); ++i) {
    const ServerMetricsWindow& server = servers[i];
    const std::string who = fmt::format("server {}", i + 1);
    if (!server.delta) {
      w.field(fmt::format("Server {}", i + 1), "unavailable: " + server.failure);
      continue;
    }
    w.field(fmt::format("Server {}", i + 1),
            fmt::format("{} ({}): {} prompt, {} generation tokens", server.url,
                        server_metrics::to_string(server.delta->family),
                        count_text(server.delta->prompt_tokens),
                        count_text(server.delta->generation_tokens)));
    if (server.polls) write_gauges(w, *server.polls, who);
  }
}

// The window's findings and notes, after its figures.
void write_window_findings(Writer& w, const ServerMetricsWindow& window,
                           const metrics::RunSummary& summary, bool sharing_intended) {
  const server_metrics::Delta& delta = *window.delta;
  const std::optional<double> bench_output = static_cast<double>(summary.total_output_tokens);
  const std::optional<double> bench_input = results::bench_input_tokens(summary);
  if (auto warning =
          mismatch_warning(delta.generation_tokens, bench_output, "generation", "output")) {
    w.text(*warning);
  }
  if (auto warning = mismatch_warning(delta.prompt_tokens, bench_input, "prompt", "input")) {
    w.text(*warning);
  }
  for (const std::string& finding :
       results::prefix_cache_findings(delta, summary, sharing_intended)) {
    w.text(finding);
  }
  if (window.warmup_requests > 0) {
    w.text(
        fmt::format("Note: the server's counts include the {} warm-up request(s); bench's do "
                    "not.",
                    window.warmup_requests));
  }
  for (const std::string& note : delta.notes) w.text("Note: " + note);
}

void write_window(Writer& w, const ServerMetricsWindow& window, const metrics::RunSummary& summary,
                  bool sharing_intended) {
  if (!window.delta) {
    w.field("Server metrics", "unavailable: " + window.failure);
    return;
  }
  const server_metrics::Delta& delta = *window.delta;
  const std::optional<double> bench_output = static_cast<double>(summary.total_output_tokens);
  w.field("Scraped",
          fmt::format("{} ({}), {} and after its last request", window.url,
                      server_metrics::to_string(delta.family),
                      window.warmup_drained ? "once the warm-up had drained" : "before the point"));
  w.field("Prompt tokens (server)",
          held_against(delta.prompt_tokens, results::bench_input_tokens(summary), "input"));
  w.field("Generation tokens (server)",
          held_against(delta.generation_tokens, bench_output, "output"));
  w.field("Requests succeeded (server)", count_text(delta.requests_succeeded));
  if (delta.prefix_cache_query_tokens) {
    w.field("Prefix-cache hits (server)",
            fmt::format("{} of {} prompt tokens looked up (bench: {} cached input tokens)",
                        count_text(delta.prefix_cache_hit_tokens),
                        count_text(delta.prefix_cache_query_tokens),
                        count_text(results::bench_cached_tokens(summary))));
  }
  if (delta.prefix_cache_hit_ratio) {
    const std::optional<double> share = results::bench_cached_share(summary);
    w.field("Prefix-cache hit rate (server)",
            fmt::format("{:.1f}% (a gauge of its latest prefill batches, after the last "
                        "request; bench: {} of input tokens cached)",
                        *delta.prefix_cache_hit_ratio * 100,
                        share ? fmt::format("{:.1f}%", *share * 100) : "n/a"));
  }
  w.field("Preemptions (server)", count_text(delta.preemptions));
  if (auto spec = spec_decode_text(delta)) w.field("Speculative decoding (server)", *spec);
  if (window.polls) write_gauges(w, *window.polls, "server");
  write_server_latency(w, results::latency_ranges(delta, summary),
                       results::mean_queue_time_s(delta));
  write_window_findings(w, window, summary, sharing_intended);
}

}  // namespace

void write_server(Writer& w, const metrics::RunSummary& s, const ServerMetricsWindow& window,
                  bool sharing_intended) {
  w.rule("Server", '-');
  write_window(w, window, s, sharing_intended);
  write_each_server(w, window.servers);
}

}  // namespace bench::report::text
