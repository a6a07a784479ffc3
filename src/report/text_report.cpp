// The human report. Shaped like SGLang's bench_serving summary so its users find their way,
// with what that summary leaves out: output tok/s first and every tok/s labelled (output, input
// or total), failures beside the throughput, the source of every token count, the chunk/token
// split, and latency from the intended start beside the plain one.
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/metrics/error_class.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/report.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/multi_turn_section.hpp"
#include "bench/results/server_section.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/clock.hpp"
#include "efficiency_lines.hpp"

namespace bench::report {
namespace {

using metrics::Distribution;
using metrics::RunSummary;
using results::ClientCheck;
using results::RunContext;
using results::ServerLine;
using results::ServerMetricsWindow;

constexpr std::size_t kWidth = 78;  // rules and the latency table fit an 80-column terminal
constexpr int kLabelWidth = 34;     // "Label:" column of the key/value lines
constexpr int kNumberWidth = 10;    // numbers in the throughput block
constexpr int kRowLabelWidth = 8;   // latency table: "TTFT", "E2E", ...
constexpr int kColumnWidth = 10;    // latency table: one statistic
constexpr std::size_t kMaxSampleChars = 160;

class Writer {
 public:
  // "====== title ======" across the report's width (fmt has no dynamic fill character).
  void rule(std::string_view title, char fill) {
    const std::string label = title.empty() ? std::string() : fmt::format(" {} ", title);
    const std::size_t pad = kWidth > label.size() ? kWidth - label.size() : 0;
    text_.append(pad / 2, fill);
    text_ += label;
    text_.append(pad - pad / 2, fill);
    text_ += '\n';
  }
  void field(std::string_view label, std::string_view value) {
    fmt::format_to(out(), "{:<{}}{}\n", fmt::format("{}:", label), kLabelWidth, value);
  }
  void text(std::string_view line) { fmt::format_to(out(), "{}\n", line); }
  std::string take() { return std::move(text_); }

 private:
  std::back_insert_iterator<std::string> out() { return std::back_inserter(text_); }
  std::string text_;
};

// Plain doubles only: a NaN or infinity from an empty run prints as 0.

std::string fixed2(double value) { return fmt::format("{:.2f}", results::finite_or_zero(value)); }

// Means of lengths: "256" when whole, else one decimal ("312.4").
std::string length(double value) {
  const double rounded = std::round(results::finite_or_zero(value) * 10.0) / 10.0;
  if (rounded == std::floor(rounded)) return fmt::format("{:.0f}", rounded);
  return fmt::format("{:.1f}", rounded);
}

// A mean length that may be unknown (a mean of no values): "n/a", never 0.
std::string length(std::optional<double> value) { return value ? length(*value) : "n/a"; }

// A statistic of `d` to 2 decimals; "n/a" when `d` holds no values, never a 0.00 that reads
// like a measurement.
std::string stat2(const Distribution& d, double Distribution::*field) {
  const std::optional<double> value = metrics::known_stat(d, field);
  return value ? fixed2(*value) : "n/a";
}

// A server's error message on one line: control characters become spaces, long ones are cut.
std::string one_line(std::string_view message) {
  std::string line;
  for (char c : message.substr(0, kMaxSampleChars)) {
    line += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  }
  if (message.size() > kMaxSampleChars) line += "...";
  return line;
}

// The answer check made before the run: its summary, and a line per answer not plausible.
void write_answer_check(Writer& w, const nlohmann::json& block) {
  const std::vector<std::string> lines = answer_check_lines(block);
  if (lines.empty()) return;
  w.field("Answer check",
          (results::answer_check_implausible(block) ? "WARNING: " : "") + lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) w.text(lines[i]);
}

void write_header(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("bench results", '=');
  if (!c.started_at.empty()) w.field("Started at", c.started_at);
  w.field("Target", c.embedded_server ? c.base_url + " (embedded simulated server)" : c.base_url);
  w.field("Endpoint", c.endpoint);
  w.field("Model", c.model);
  write_answer_check(w, c.answer_check);
  w.field("Max concurrency", c.concurrency ? fmt::format("{}", *c.concurrency)
                                           : std::string("none (open loop: no cap)"));
  if (c.ramp_up_strategy != "none" && !c.ramp_up_strategy.empty()) {
    w.field("Request rate (offered)",
            fmt::format("ramp-up, {} from {:g} to {:g} req/s", c.ramp_up_strategy,
                        c.ramp_up_start_rps, c.ramp_up_end_rps));
  } else if (std::isfinite(c.request_rate)) {
    w.field("Request rate (offered)", fmt::format("{:g} req/s", c.request_rate));
  }
  w.field("Requests", fmt::format("{} sent = {} completed + {} failed + {} cancelled", s.sent,
                                  s.completed, s.failed, s.cancelled));
  w.field("Warm-up requests (excluded)", fmt::format("{}", s.warmup_requests));
  w.field("Duration (s)", fixed2(s.duration_s));
}

// Why the input figures are unknown, or "" when every request's prompt_tokens is known.
std::string input_unknown_note(const RunSummary& s) {
  if (s.input_tokens_known()) return "";
  return s.input_tokens_from_usage > 0
             ? fmt::format("input unknown: {} requests without prompt_tokens",
                           s.input_tokens_unknown)
             : std::string("input unknown: server sent no prompt_tokens");
}

// The input figure's computed and cached parts, each a labelled line: "n/a" unless every
// request disclosed its split (a part of the split is not the whole run's).
using SplitLines = std::vector<std::pair<std::string, std::string>>;

SplitLines input_split_lines(const RunSummary& s) {
  const metrics::InputTokenSplit& split = s.input_split;
  const bool known = s.input_tokens_known() && split.disclosure() == metrics::CacheDisclosure::all;
  std::string why;
  if (split.disclosure() == metrics::CacheDisclosure::none) {
    why = "  [server did not disclose cached tokens]";
  } else if (split.disclosure() == metrics::CacheDisclosure::some) {
    why = fmt::format("  [disclosed on {} of {} requests]", split.disclosing_requests,
                      split.requests);
  }
  auto line = [&](double per_s) {
    return fmt::format("{:>{}} tok/s (input){}", known ? fixed2(per_s) : "n/a", kNumberWidth,
                       known ? "" : why);
  };
  return {{"  computed (prefilled)", line(s.computed_input_throughput)},
          {"  cached (prefix cache)", line(s.cached_input_throughput)}};
}

// Input and total beside output, under `labels` (input's, total's), with `split` under input.
// When an input count is unknown both are "n/a", never 0 or a part: a total that silently
// equals output would read as a blended figure.
void write_input_and_total(Writer& w, double input_per_s, double total_per_s,
                           const std::string& unknown_note,
                           std::pair<std::string_view, std::string_view> labels,
                           const SplitLines& split) {
  if (unknown_note.empty()) {
    w.field(labels.first, fmt::format("{:>{}} tok/s (input)", fixed2(input_per_s), kNumberWidth));
  } else {
    w.field(labels.first,
            fmt::format("{:>{}} tok/s (input)  [{}]", "n/a", kNumberWidth, unknown_note));
  }
  for (const auto& [label, value] : split) w.field(label, value);
  if (unknown_note.empty()) {
    w.field(labels.second, fmt::format("{:>{}} tok/s (total = input + output)", fixed2(total_per_s),
                                       kNumberWidth));
  } else {
    w.field(labels.second, fmt::format("{:>{}} tok/s (total = input + output; input unknown)",
                                       "n/a", kNumberWidth));
  }
}

// Reasoning models: the two parts of the output figure, under it, only when some request
// reasoned (docs/metrics.md, Reasoning models).
void write_reasoning_throughput(Writer& w, const RunSummary& s) {
  if (!s.reasoning.any()) return;
  const bool estimate = s.reasoning.from_chunks > 0;
  w.field("  reasoning",
          fmt::format("{:>{}} output tok/s (reasoning){}", fixed2(s.reasoning_output_throughput),
                      kNumberWidth, estimate ? "  [ESTIMATE: see token counts]" : ""));
  w.field("  answer", fmt::format("{:>{}} output tok/s (answer)",
                                  fixed2(s.answer_output_throughput), kNumberWidth));
}

// Tool calls: their part of the output figure, under it, only when some request called a tool
// (docs/metrics.md, Tool calls).
void write_tool_call_throughput(Writer& w, const RunSummary& s) {
  if (!s.tool_calls.any()) return;
  const bool estimate = s.tool_calls.from_chunks > 0;
  w.field("  tool calls",
          fmt::format("{:>{}} output tok/s (tool calls){}", fixed2(s.tool_call_output_throughput),
                      kNumberWidth, estimate ? "  [ESTIMATE: see token counts]" : ""));
}

// Output first: it is the decode rate, the figure a blended total hides (docs/metrics.md,
// Throughput).
void write_throughput(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("Throughput", '-');
  std::string output_note;
  if (s.output_tokens_from_chunks > 0) output_note = "  [ESTIMATE: see token counts]";
  w.field("Output token throughput",
          fmt::format("{:>{}} tok/s (output){}", fixed2(s.output_throughput), kNumberWidth,
                      output_note));
  write_reasoning_throughput(w, s);
  write_tool_call_throughput(w, s);
  write_input_and_total(w, s.input_throughput, s.total_throughput, input_unknown_note(s),
                        {"Input token throughput", "Total token throughput"}, input_split_lines(s));
  w.field("Request throughput",
          fmt::format("{:>{}} req/s", fixed2(s.request_throughput), kNumberWidth));
  if (s.goodput_measured) {
    w.field("Goodput", fmt::format("{:>{}} req/s ({} of {} completed requests met every SLO)",
                                   fixed2(s.goodput), kNumberWidth, s.good_requests, s.completed));
  }
  w.field("Achieved concurrency", fmt::format("{:>{}} in flight (Little's law)",
                                              fixed2(s.achieved_concurrency), kNumberWidth));
  if (s.failed > 0) {
    const double percent =
        s.sent > 0 ? 100.0 * static_cast<double>(s.failed) / static_cast<double>(s.sent) : 100.0;
    w.text(fmt::format(
        "WARNING: {} of {} requests failed ({:.1f}%) \u2014 throughput counts successful "
        "requests only",
        s.failed, s.sent, percent));
  }
  if (const std::optional<std::string> cache = results::prompt_cache_warning(s, c)) {
    w.text("WARNING: " + *cache);
  }
  if (s.cancelled > 0) {
    w.text(fmt::format("NOTE: {} requests cancelled by bench (not failures, not counted)",
                       s.cancelled));
  }
}

// Why the steady-state latencies are unknown: the one reason that applies.
std::string_view steady_latency_gap_text(metrics::SteadyLatencyGap gap) {
  switch (gap) {
    case metrics::SteadyLatencyGap::none_inside:
      return "no completed request started and ended inside the window";
    case metrics::SteadyLatencyGap::few_inside:
      return "fewer than half the completed requests fit in the window";
    case metrics::SteadyLatencyGap::budget_ran_out:
      return "the raw-value budget ran out before the run ended: --latency-sample-budget";
    case metrics::SteadyLatencyGap::merged:
      return "merged from shards, whose results keep no request's times";
    case metrics::SteadyLatencyGap::no_window:
    case metrics::SteadyLatencyGap::none: break;
  }
  return "no steady-state window";
}

// Throughput where the load was what was asked for, beside the whole-run figures above, which
// include the ramp-up and the drain.
void write_steady_state(Writer& w, const RunSummary& s) {
  const metrics::SteadyState& steady = s.steady_state;
  if (!steady.found) return;
  w.field("Steady state", fmt::format("{:.2f} s to {:.2f} s, >= 90% of {} in flight",
                                      steady.start_s, steady.end_s, steady.target_in_flight));
  w.field("  output token throughput",
          fmt::format("{:>{}} tok/s (output)", fixed2(steady.output_throughput), kNumberWidth));
  write_input_and_total(w, steady.input_throughput, steady.total_throughput, input_unknown_note(s),
                        {"  input token throughput", "  total token throughput"}, {});
  if (!s.steady_latencies) {
    w.field("  latency", fmt::format("n/a ({})", steady_latency_gap_text(s.steady_latency_gap)));
    return;
  }
  const metrics::SteadyLatencies& latency = *s.steady_latencies;
  using D = Distribution;
  w.field("  latency p50 / p99 (ms)",
          fmt::format("TTFT {} / {}  TPOT {} / {}  E2E {} / {}  ({} requests inside)",
                      stat2(latency.ttft_ms, &D::median), stat2(latency.ttft_ms, &D::p99),
                      stat2(latency.tpot_ms, &D::median), stat2(latency.tpot_ms, &D::p99),
                      stat2(latency.e2e_ms, &D::median), stat2(latency.e2e_ms, &D::p99),
                      latency.requests));
}

std::string output_source(const RunSummary& s) {
  const std::int64_t usage = s.output_tokens_from_usage;
  const std::int64_t tokenizer = s.output_tokens_from_tokenizer;
  const std::int64_t chunks = s.output_tokens_from_chunks;
  if (tokenizer == 0 && chunks == 0) {
    return usage > 0 ? "from server usage" : "no completed requests";
  }
  if (usage == 0 && chunks == 0) return "counted by the tokenizer: server sent no usage";
  if (usage == 0 && tokenizer == 0) return "ESTIMATE from chunk count: server sent no usage";
  std::vector<std::string> parts;
  if (usage > 0) parts.push_back(fmt::format("{} requests from server usage", usage));
  if (tokenizer > 0) parts.push_back(fmt::format("{} counted by the tokenizer", tokenizer));
  if (chunks > 0) parts.push_back(fmt::format("{} ESTIMATED from chunk count", chunks));
  return fmt::format("mixed: {}", fmt::join(parts, ", "));
}

std::string input_source(const RunSummary& s) {
  if (s.input_tokens_known()) {
    return s.input_tokens_from_usage > 0 ? "from server usage" : "no completed requests";
  }
  if (s.input_tokens_from_usage == 0) {
    return "unknown: server sent no prompt_tokens";
  }
  return fmt::format("mixed: {} requests from server usage, {} unknown, so the total is unknown",
                     s.input_tokens_from_usage, s.input_tokens_unknown);
}

// "1800 computed + 248 cached", or n/a with why: the split of Total input tokens.
std::string input_split_counts(const RunSummary& s) {
  const metrics::InputTokenSplit& split = s.input_split;
  if (s.input_tokens_known() && split.disclosure() == metrics::CacheDisclosure::all) {
    return fmt::format("{} computed + {} cached", split.computed_tokens, split.cached_tokens);
  }
  if (split.disclosure() == metrics::CacheDisclosure::some) {
    return fmt::format("n/a (of the {} requests that disclosed it: {} computed + {} cached)",
                       split.disclosing_requests, split.computed_tokens, split.cached_tokens);
  }
  return "n/a (not disclosed by the server)";
}

std::string reasoning_source(const metrics::ReasoningSplit& split) {
  const std::int64_t sources = (split.from_usage > 0 ? 1 : 0) + (split.from_tokenizer > 0 ? 1 : 0) +
                               (split.from_chunks > 0 ? 1 : 0);
  if (sources > 1) {
    return fmt::format(
        "mixed: {} from server usage, {} counted by the tokenizer, {} ESTIMATED "
        "from reasoning chunks",
        split.from_usage, split.from_tokenizer, split.from_chunks);
  }
  if (split.from_tokenizer > 0) return "counted by the tokenizer: usage did not say";
  if (split.from_chunks > 0) return "ESTIMATE from reasoning chunks: usage did not say";
  return "from server usage";
}

// Reasoning models: how the output split, and how that was known; nothing when no request
// reasoned.
void write_reasoning_counts(Writer& w, const RunSummary& s) {
  const metrics::ReasoningSplit& split = s.reasoning;
  if (!split.any()) return;
  w.field("  reasoning + answer", fmt::format("{} + {} ({})", split.reasoning_tokens,
                                              split.answer_tokens, reasoning_source(split)));
  w.field("  requests that reasoned",
          fmt::format("{} of {}", split.reasoning_requests, split.requests));
  w.field("Mean reasoning tokens", fmt::format("{} per request, then {} answer tokens",
                                               length(split.mean_reasoning_tokens().value_or(0)),
                                               length(split.mean_answer_tokens().value_or(0))));
}

std::string tool_call_source(const metrics::ToolCallSplit& split) {
  const std::int64_t sources = (split.from_usage > 0 ? 1 : 0) + (split.from_tokenizer > 0 ? 1 : 0) +
                               (split.from_chunks > 0 ? 1 : 0);
  if (sources > 1) {
    return fmt::format(
        "mixed: {} from server usage, {} counted by the tokenizer, {} ESTIMATED "
        "from tool-call chunks",
        split.from_usage, split.from_tokenizer, split.from_chunks);
  }
  if (split.from_tokenizer > 0) return "counted by the tokenizer on names and arguments";
  if (split.from_chunks > 0) return "ESTIMATE from tool-call chunks";
  return "from server usage: answers of tool calls alone";
}

// Tool calls: the output tokens spent on them, their share, the calls made, and how the count
// was known; nothing when no request called a tool.
void write_tool_call_counts(Writer& w, const RunSummary& s) {
  const metrics::ToolCallSplit& split = s.tool_calls;
  if (!split.any()) return;
  const std::optional<double> share = split.share_of_output();
  w.field("  tool calls",
          fmt::format("{} tokens, {} of output ({})", split.tool_call_tokens,
                      share ? fmt::format("{:.1f}%", *share * 100.0) : std::string("n/a"),
                      tool_call_source(split)));
  w.field("  requests that called tools",
          fmt::format("{} of {}, {} calls, {} tool-call tokens per calling request",
                      split.tool_call_requests, split.requests, split.tool_calls,
                      length(split.mean_tool_call_tokens())));
}

void write_token_counts(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("Token counts", '-');
  w.field("Total output tokens", fmt::format("{} ({})", s.total_output_tokens, output_source(s)));
  write_reasoning_counts(w, s);
  write_tool_call_counts(w, s);
  w.field("Total input tokens",
          fmt::format("{} ({})",
                      s.input_tokens_known() ? fmt::format("{}", s.total_input_tokens) : "n/a",
                      input_source(s)));
  w.field("  computed + cached", input_split_counts(s));
  if (results::sent_images(c.config)) {
    w.field("  text + images", results::image_input_split_line(results::image_input_split(s)));
  }
  w.field("Prompt cache", results::prompt_cache_note(s, c));
  const std::string counted =
      s.input_tokens_from_usage > 0 && s.mean_prompt_tokens
          ? fmt::format("server counted {} tokens", length(*s.mean_prompt_tokens))
          : std::string("server count unknown");
  // The tokenizer's count of the content sent, beside the server's (which adds the template).
  const std::string client_counted =
      s.mean_client_prompt_tokens
          ? fmt::format("tokenizer counted {} tokens, ", length(*s.mean_client_prompt_tokens))
          : std::string();
  w.field("Mean input length",
          fmt::format("requested {} {}, {}{}", length(s.mean_requested_input_len), c.input_len_unit,
                      client_counted, counted));
  w.field("Mean output length",
          fmt::format("requested {} tokens (max_tokens), received {}{}",
                      length(s.mean_requested_output_len),
                      s.mean_completion_tokens ? length(s.mean_completion_tokens) + " tokens"
                                               : std::string("n/a (no completed request)"),
                      s.output_tokens_from_chunks > 0      ? " (ESTIMATE)"
                      : s.output_tokens_from_tokenizer > 0 ? " (counted by the tokenizer)"
                                                           : ""));
  if (s.chunks_differ_from_tokens) {
    std::string how = "exact from per-chunk usage";
    if (s.itl_estimated) {
      how = s.requests_with_per_chunk_usage > 0
                ? fmt::format(
                      "exact from per-chunk usage for {} requests, ESTIMATED from "
                      "completion_tokens / chunks for the rest",
                      s.requests_with_per_chunk_usage)
                : std::string("ESTIMATED from completion_tokens / chunks");
    }
    w.text(
        fmt::format("Note: chunks != tokens: {} text chunks carried {} tokens; ITL splits each "
                    "chunk gap over its tokens ({})",
                    s.total_text_chunks, s.total_output_tokens, how));
  }
}

void write_latency_row(Writer& w, std::string_view name, const Distribution& d) {
  std::string row = fmt::format("{:<{}}", name, kRowLabelWidth);
  for (double value : {d.mean, d.median, d.std, d.p90, d.p95, d.p99, d.max}) {
    // A distribution with no values (e.g. TPOT when every output was one token) shows "-",
    // not a 0.00 that reads like a measurement.
    fmt::format_to(std::back_inserter(row), "{:>{}}", d.count > 0 ? fixed2(value) : "-",
                   kColumnWidth);
  }
  w.text(row);
}

void write_latency(Writer& w, const RunSummary& s) {
  w.rule("Latency (ms)", '-');
  std::string head = fmt::format("{:<{}}", "", kRowLabelWidth);
  for (std::string_view column : {"mean", "median", "std", "p90", "p95", "p99", "max"}) {
    fmt::format_to(std::back_inserter(head), "{:>{}}", column, kColumnWidth);
  }
  w.text(head);
  write_latency_row(w, "TTFT", s.ttft_ms);
  if (s.reasoning.any()) write_latency_row(w, "TTFA", s.ttfa_ms);
  write_latency_row(w, "ITL", s.itl_ms);
  write_latency_row(w, "ICL", s.icl_ms);
  write_latency_row(w, "TPOT", s.tpot_ms);
  write_latency_row(w, "E2E", s.e2e_ms);
  w.text(
      "ITL: per token. ICL: per chunk (= SGLang/vLLM \"ITL\"). "
      "TPOT = GenAI-Perf/AIPerf \"ITL\".");
  if (s.reasoning.any()) {
    w.text("TTFT: first token of any kind, reasoning included. TTFA: first answer token.");
  }
  if (s.connections_opened > 0) {
    w.field("Connections opened",
            fmt::format("{} (connect mean {} ms, p99 {} ms; included in "
                        "their TTFT and E2E)",
                        s.connections_opened, stat2(s.connect_ms, &Distribution::mean),
                        stat2(s.connect_ms, &Distribution::p99)));
  } else {
    w.field("Connections opened", "0 (every request reused a warm connection)");
  }
  if (s.connection_retries > 0) {
    w.field("Connection retries",
            fmt::format("{} (requests sent again on a new connection: the server had closed "
                        "the reused one before answering; timed from their first attempt)",
                        s.connection_retries));
  }
  using D = Distribution;
  const Distribution& lag = s.schedule_lag_ms;
  w.field("Schedule lag (ms)", fmt::format("mean {}  p99 {}  max {}", stat2(lag, &D::mean),
                                           stat2(lag, &D::p99), stat2(lag, &D::max)));
  if (s.client_lag_ms.max < lag.max) {
    // An open loop waiting for a concurrency slot: only part of the lag was the client's.
    const Distribution& client = s.client_lag_ms;
    w.field("  of which client lag (ms)",
            fmt::format("mean {}  p99 {}  max {}", stat2(client, &D::mean), stat2(client, &D::p99),
                        stat2(client, &D::max)));
  }
  w.field("TTFT from intended start (ms)",
          fmt::format("p50 {}  p99 {}", stat2(s.ttft_from_intended_ms, &D::median),
                      stat2(s.ttft_from_intended_ms, &D::p99)));
  w.field("E2E from intended start (ms)",
          fmt::format("p50 {}  p99 {}", stat2(s.e2e_from_intended_ms, &D::median),
                      stat2(s.e2e_from_intended_ms, &D::p99)));
  w.field("Time to headers (ms)",
          s.ttfb_ms.count > 0
              ? fmt::format("mean {}  p50 {}  p99 {} (admission; TTFT adds prefill)",
                            fixed2(s.ttfb_ms.mean), fixed2(s.ttfb_ms.median), fixed2(s.ttfb_ms.p99))
              : std::string("n/a"));
}

void write_errors(Writer& w, const RunSummary& s) {
  bool any = false;
  for (metrics::ErrorClass error : metrics::kAllErrorClasses) {
    const auto found = s.errors.find(error);
    if (found == s.errors.end() || found->second.count == 0) continue;
    if (!any) w.rule("Errors", '-');
    any = true;
    std::string line =
        fmt::format("  {}: {}", metrics::error_class_name(error), found->second.count);
    if (!found->second.samples.empty()) {
      line += fmt::format("  (e.g. {})", one_line(found->second.samples.front()));
    }
    w.text(line);
  }
}

// The self-check's two verdicts, each in its own words (app/client_verdict.hpp): the client's
// own work, and its host, are different causes with different cures.
void write_verdicts(Writer& w, const ClientCheck& check) {
  if (check.saturated) {
    w.text(
        "Self-check: the client was the bottleneck (client_saturated): its own work kept an "
        "event loop busy, and these figures may carry its delay.");
  }
  if (check.host_late) {
    w.text(
        "Self-check: its host ran the client late (host_late): a busy or virtual machine, "
        "not the client's work; these figures may carry the host's delay.");
  }
  if (check.saturated || check.host_late) return;
  w.text(
      check.warnings.empty()
          ? "Self-check: the client kept up; it did not bias these figures."
          : "Self-check: the client's own work kept up; the warning(s) above say what was late.");
}

void write_client(Writer& w, const RunSummary& s, const ClientCheck& check) {
  const metrics::ClientLoad& client = check.load;
  w.rule("Client", '-');
  w.field(
      "CPU",
      fmt::format("{:.2f} s over {:.2f} s on {} event loop(s), busiest {:.0f}%{}", client.cpu_s,
                  client.wall_s, client.threads, client.busiest_thread_utilization * 100,
                  s.total_output_tokens > 0
                      ? fmt::format(", {:.3f} ms per 1,000 output tokens",
                                    client.cpu_s * 1e6 / static_cast<double>(s.total_output_tokens))
                      : std::string()));
  if (!client.threads_reason.empty()) w.field("Event loops", client.threads_reason);
  if (client.preconnect_requested > 0) {
    w.field("Pre-opened", fmt::format("{} of {} connection(s) in {:.1f} ms before the run{} "
                                      "(in no figure above)",
                                      client.preconnect_opened, client.preconnect_requested,
                                      client.preconnect_s * 1000,
                                      client.preconnect_failed > 0
                                          ? fmt::format(", {} failed", client.preconnect_failed)
                                          : std::string()));
  }
  if (client.reuse_stopped()) {
    w.field(
        "Connection reuse",
        fmt::format("stopped: the server closed {} connections in a row at most {:.2f} ms "
                    "after their response (as llama.cpp does), so each later request "
                    "opened its own",
                    client.reuse_stopped_after_closes, ns_to_ms(client.reuse_stopped_close_ns)));
  }
  for (const std::string& warning : check.warnings) w.text("WARNING: " + warning);
  write_verdicts(w, check);
}

// What made the results (results/provenance.hpp), on one line; none for a file without it.
void write_provenance(Writer& w, const nlohmann::json& provenance) {
  if (!provenance.is_object()) return;
  auto item = [&provenance](const char* key) {
    const nlohmann::json value = provenance.value(key, nlohmann::json());
    if (value.is_string()) return value.get<std::string>();
    return value.is_null() ? std::string("unknown") : value.dump();
  };
  w.field("Made by", fmt::format("bench {} ({}, {}), libcurl {}; {} CPU(s), {}",
                                 item("bench_version"), item("commit"), item("build_type"),
                                 item("libcurl"), item("cpus_online"), item("cpu_model")));
}

void write_server(Writer& w, const RunSummary& s, const ServerMetricsWindow& window,
                  bool sharing_intended) {
  w.rule("Server", '-');
  for (const ServerLine& line : results::server_section_lines(window, s, sharing_intended)) {
    if (line.label.empty()) {
      w.text(line.value);
    } else {
      w.field(line.label, line.value);
    }
  }
}

// Per user, per GPU and cost, each line naming its kind (efficiency_lines.hpp).
void write_efficiency(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("Efficiency", '-');
  for (const ReportLine& line : efficiency_lines(s, c)) {
    if (line.label.empty()) {
      w.text(line.value);
    } else if (line.value.empty()) {
      w.text(line.label + ":");
    } else {
      w.field(line.label, line.value);
    }
  }
}

}  // namespace

std::string render_text(const RunSummary& summary, const RunContext& context) {
  Writer w;
  write_header(w, summary, context);
  write_throughput(w, summary, context);
  write_steady_state(w, summary);
  write_efficiency(w, summary, context);
  write_token_counts(w, summary, context);
  write_latency(w, summary);
  if (summary.multi_turn) {
    w.rule("Multi-turn (by turn)", '-');
    for (const std::string& line : results::multi_turn_lines(*summary.multi_turn)) w.text(line);
  }
  write_errors(w, summary);
  write_client(w, summary, context.client);
  write_provenance(w, context.provenance);
  if (context.server_metrics) {
    write_server(w, summary, *context.server_metrics,
                 context.prompts_share_prefixes || context.prompts_reused);
  }
  if (context.interrupted) {
    w.text("INTERRUPTED: the figures cover the requests sent before the stop.");
  }
  w.rule("", '=');
  w.text("Definitions: docs/metrics.md; every JSON result carries them under \"definitions\".");
  return w.take();
}

}  // namespace bench::report
