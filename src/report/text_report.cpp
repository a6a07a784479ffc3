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
#include "bench/report/figure_words.hpp"
#include "bench/report/report.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/load_warning.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/clock.hpp"
#include "efficiency_lines.hpp"
#include "text_writer.hpp"

namespace bench::report {
namespace {

using text::fixed2;
using text::kColumnWidth;
using text::kLabelWidth;
using text::kNumberWidth;
using text::kRowLabelWidth;
using text::length;
using text::one_line;
using text::stat2;
using text::Writer;

using metrics::Distribution;
using metrics::RunSummary;
using results::ClientCheck;
using results::RunContext;

// The answer check made before the run: its summary, and a line per answer not plausible.
void write_answer_check(Writer& w, const nlohmann::json& block) {
  const std::vector<std::string> lines = answer_check_lines(block);
  if (lines.empty()) return;
  w.field("Answer check",
          (results::answer_check_implausible(block) ? "WARNING: " : "") + lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) w.text(lines[i]);
}

// A command line read as vLLM's or SGLang's: said, with the peer's defaults bench did not take.
void write_dialect(Writer& w, const nlohmann::json& config) {
  const auto dialect = config.find(results::key::dialect);
  if (dialect == config.end() || !dialect->is_string()) return;
  w.field("Command line", fmt::format("read as {}'s, with its defaults, except:",
                                      *dialect == "sglang" ? "SGLang" : "vLLM"));
  const auto kept = config.find(results::key::peer_defaults_not_taken);
  if (kept == config.end() || !kept->is_array() || kept->empty()) {
    w.text("  none");
    return;
  }
  for (const nlohmann::json& rule : *kept) {
    if (rule.is_string()) w.text("  " + rule.get<std::string>());
  }
}

void write_header(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("bench results", '=');
  // First, where it cannot be missed: every figure below is of part of the run.
  if (c.interrupted) w.text("INTERRUPTED: the figures cover the requests sent before the stop.");
  if (!c.started_at.empty()) w.field("Started at", c.started_at);
  w.field("Target", c.embedded_server ? c.base_url + " (embedded simulated server)" : c.base_url);
  w.field("Endpoint", c.endpoint);
  w.field("Model", c.model);
  write_dialect(w, c.config);
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
  if (const std::optional<std::string> load = results::load_not_reached_warning(s, c)) {
    w.text("WARNING: " + *load);
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

void write_latency_row(Writer& w, std::string_view name, const Distribution& d) {
  std::string row = fmt::format("{:<{}}", name, kRowLabelWidth);
  for (double Distribution::*field : results::kDistributionStatFields) {
    const double value = d.*field;
    // A distribution with no values (e.g. TPOT when every output was one token) shows "-",
    // not a 0.00 that reads like a measurement.
    fmt::format_to(std::back_inserter(row), "{:>{}}", d.count > 0 ? fixed2(value) : "-",
                   kColumnWidth);
  }
  w.text(row);
}

// Completed requests, none of them streamed: no figure timed from a stream's chunks exists.
bool streamed_none(const RunSummary& s) { return s.completed > 0 && s.completed_streamed() == 0; }

// Whether the latency table has a row for `figure`: one the text report shows, and for a figure
// some runs lack, only where this run has it (TTFA: some request reasoned; TTFT, ITL, TPOT: some
// request was streamed).
bool has_latency_row(const results::LatencyFigure& figure, const RunSummary& s) {
  if (!figure.in_text_report) return false;
  if (figure.needs_stream && streamed_none(s)) return false;
  if (!figure.row_only_when_measured) return true;
  return figure.known != nullptr ? figure.known(s) : (s.*figure.values).count > 0;
}

// Requests sent with "stream": false (--no-stream): how many, and what the table holds of them.
void write_not_streamed(Writer& w, const RunSummary& s) {
  const std::string line = not_streamed_line(s.not_streamed, s.completed);
  if (!line.empty()) w.text(line);
}

void write_latency(Writer& w, const RunSummary& s) {
  w.rule("Latency (ms)", '-');
  std::string head = fmt::format("{:<{}}", "", kRowLabelWidth);
  for (std::string_view column : results::kDistributionStats) {
    fmt::format_to(std::back_inserter(head), "{:>{}}", column, kColumnWidth);
  }
  w.text(head);
  for (const results::LatencyFigure& figure : results::latency_figures()) {
    if (has_latency_row(figure, s)) write_latency_row(w, figure.label, s.*figure.values);
  }
  write_not_streamed(w, s);
  if (!streamed_none(s)) {
    w.text(
        "ITL: per token. ICL: per chunk (= SGLang/vLLM \"ITL\"). "
        "TPOT = GenAI-Perf/AIPerf \"ITL\".");
  }
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
  if (!streamed_none(s)) {
    w.field("TTFT from intended start (ms)",
            fmt::format("p50 {}  p99 {}", stat2(s.ttft_from_intended_ms, &D::median),
                        stat2(s.ttft_from_intended_ms, &D::p99)));
  }
  w.field("E2E from intended start (ms)",
          fmt::format("p50 {}  p99 {}", stat2(s.e2e_from_intended_ms, &D::median),
                      stat2(s.e2e_from_intended_ms, &D::p99)));
  // A whole body's headers come with it, at the end: no admission time to tell apart.
  w.field("Time to headers (ms)",
          s.ttfb_ms.count > 0
              ? fmt::format("mean {}  p50 {}  p99 {} ({})", fixed2(s.ttfb_ms.mean),
                            fixed2(s.ttfb_ms.median), fixed2(s.ttfb_ms.p99),
                            s.not_streamed > 0 ? "a whole body's headers may come with it"
                                               : "admission; TTFT adds prefill")
              : std::string("n/a"));
}

// The flag whose limit cut the requests of a class, for the classes a limit of bench's makes.
std::string_view limit_of(metrics::ErrorClass error) {
  switch (error) {
    case metrics::ErrorClass::connect_timeout: return "--connect-timeout";
    case metrics::ErrorClass::ttft_timeout: return "--ttft-timeout";
    case metrics::ErrorClass::stall: return "--stall-timeout";
    case metrics::ErrorClass::request_timeout: return "--request-timeout";
    default: return "";
  }
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
    if (!limit_of(error).empty()) line += fmt::format(" cut by {}", limit_of(error));
    if (!found->second.samples.empty()) {
      line += fmt::format("  (e.g. {})", one_line(found->second.samples.front()));
    }
    w.text(line);
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
  if (summary.multi_turn) text::write_multi_turn(w, *summary.multi_turn);
  if (summary.agent_trees) text::write_agent_trace(w, summary, context);
  write_errors(w, summary);
  write_client(w, summary, context.client);
  write_provenance(w, context.provenance);
  if (context.server_metrics) {
    text::write_server(w, summary, *context.server_metrics, context.meant_to_share_prefixes());
  }
  w.rule("", '=');
  w.text("Definitions: docs/metrics.md; every JSON result carries them under \"definitions\".");
  return w.take();
}

}  // namespace bench::report
