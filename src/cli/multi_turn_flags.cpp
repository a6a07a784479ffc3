#include "bench/cli/multi_turn_flags.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "bench/cli/header_line.hpp"
#include "bench/cli/number_checks.hpp"
#include "bench/cli/values.hpp"

namespace bench::cli {
namespace {

constexpr const char* kGroup = "Multi-turn conversations";
constexpr std::int64_t kMaxFanOut = 64;  // branches of one session: sub-agents, not a load knob

// The flags that only mean something with --multi-turn.
constexpr const char* kMultiTurnOnly[] = {
    "--turns",           "--think-time",      "--sessions", "--session-header",
    "--tool-result-len", "--session-context", "--fan-out"};

// What a multi-turn run does not combine with: its turns come when their sessions are due, not
// on a schedule; every turn is measured; and the history is new text each turn.
constexpr const char* kRefused[] = {"--request-rate",      "--burstiness",
                                    "--constant-rate",     "--ramp-up-strategy",
                                    "--ramp-up-start-rps", "--ramp-up-end-rps",
                                    "--warmup-requests",   "--warmup-duration",
                                    "--reuse-prompts",     "--input-len-includes-template"};

void refuse_conflicts(const CLI::App& app, const RunOptions& run) {
  for (const char* flag : kRefused) {
    if (app.count(flag) > 0) {
      throw UsageError(
          fmt::format("{}: not with --multi-turn (sessions send a turn when its user "
                      "has thought; every turn is fresh and measured)",
                      flag));
    }
  }
  // A turn's history holds the model's replies, whose length in tokens bench does not set:
  // lengths in tokens would label a words count as tokens.
  if (app.count("--tokenizer") > 0 && run.tokenizer != "words") {
    throw UsageError(
        "--tokenizer: not with --multi-turn yet (a turn's history holds the "
        "model's replies; its length is counted in words)");
  }
  const workload::DatasetKind kind = run.dataset.kind;
  if (kind != workload::DatasetKind::random && kind != workload::DatasetKind::sharegpt) {
    throw UsageError(
        fmt::format("--multi-turn: not with --dataset {} (turns come from random "
                    "prompts or ShareGPT conversations)",
                    workload::dataset_kind_name(kind)));
  }
  if (kind == workload::DatasetKind::random && !run.multi_turn.turns && !run.multi_turn.agent()) {
    throw UsageError(
        "--multi-turn: --dataset random needs --turns K (sharegpt takes each "
        "conversation's own human turns)");
  }
}

// --session-context N: a count of tokens, "32k" meaning 32 x 1024 as context lengths are given.
std::int64_t parse_session_context(const std::string& text) {
  std::string digits = text;
  std::int64_t unit = 1;
  if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) {
    digits.pop_back();
    unit = 1024;
  }
  std::int64_t count = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
      count <= 0 || count > (std::int64_t{1} << 40)) {
    throw UsageError(fmt::format(
        "--session-context: '{}' is not a number of tokens > 0 (e.g. 32768 or 32k)", text));
  }
  return count * unit;
}

// Agent sessions (--tool-result-len): their turns answer the model's tool calls, so it needs
// tools to call, and something must end a session.
void finish_agent_flags(const CLI::App& app, RunOptions& run, const RawMultiTurnFlags& raw) {
  workload::MultiTurnOptions& multi_turn = run.multi_turn;
  if (!raw.session_context.empty()) {
    if (!multi_turn.agent()) {
      throw UsageError(
          "--session-context: only with --tool-result-len (agent sessions; a plain "
          "multi-turn session ends with its turns)");
    }
    multi_turn.session_context = parse_session_context(raw.session_context);
  }
  if (multi_turn.fan_out && !multi_turn.agent()) {
    throw UsageError(
        "--fan-out: only with --tool-result-len (agent sessions start sub-agents; a plain "
        "multi-turn session is one conversation)");
  }
  if (multi_turn.fan_out && (*multi_turn.fan_out < 2 || *multi_turn.fan_out > kMaxFanOut)) {
    throw UsageError(fmt::format("--fan-out: {} is not a number of branches from 2 to {}",
                                 *multi_turn.fan_out, kMaxFanOut));
  }
  if (!multi_turn.agent()) return;
  if (app.count("--tools") == 0) {
    throw UsageError(
        "--tool-result-len: agent sessions need --tools FILE (a model calls tools only "
        "when the request offers some)");
  }
  if (!multi_turn.session_context && !multi_turn.turns) {
    throw UsageError(
        "--tool-result-len: agent sessions need --session-context N or --turns K (what "
        "ends a session)");
  }
}

}  // namespace

void add_multi_turn_flags(CLI::App& app, workload::MultiTurnOptions& multi_turn,
                          RawMultiTurnFlags& raw) {
  app.add_flag("--multi-turn", multi_turn.enabled,
               "Sessions of several turns, each sending the whole history with the model's "
               "actual replies; --num-prompts counts sessions")
      ->group(kGroup);
  app.add_option("--turns", multi_turn.turns,
                 "Turns per session (random); with sharegpt a cap on each conversation's human "
                 "turns")
      ->check(positive_number())
      ->group(kGroup);
  app.add_option("--think-time", raw.think_time,
                 "Seconds between a reply's end and the session's next turn: S, exp:MEAN or "
                 "uniform:A-B (seeded by --seed; default 0)")
      ->group(kGroup);
  app.add_option("--sessions", multi_turn.sessions,
                 "Sessions open at once, thinking or waiting on a reply (default: the "
                 "concurrency, which counts requests in flight)")
      ->check(positive_number())
      ->group(kGroup);
  app.add_option("--session-header", multi_turn.session_header,
                 "Send each session's id in this header on every turn (session affinity for "
                 "routers); with --trace-format weka, each agent of a tree its own")
      ->group(kGroup);
  app.add_option("--tool-result-len", multi_turn.tool_result_len,
                 "Agent sessions (with --tools): each turn after the first sends the model's "
                 "tool calls back with a result of N words each (see docs/usage.md)")
      ->check(positive_number())
      ->group(kGroup);
  app.add_option("--fan-out", multi_turn.fan_out,
                 "Agent sessions: the first reply starts K branches (sub-agents) that share it "
                 "and go on apart, each to its own end")
      ->group(kGroup);
  app.add_option("--session-context", raw.session_context,
                 "Agent sessions: end a session after the turn whose prompt reached N tokens "
                 "(the server's prompt_tokens; 32k = 32768)")
      ->group(kGroup);
}

void finish_multi_turn_flags(const CLI::App& app, RunOptions& run, const RawMultiTurnFlags& raw) {
  if (app.count("--session-header") > 0 && !is_header_name(run.multi_turn.session_header)) {
    throw UsageError(fmt::format("--session-header: '{}' is not an HTTP header name",
                                 run.multi_turn.session_header));
  }
  // A replayed agent trace is a multi-turn run of the trace's own sessions (run_flags.cpp's
  // finish_agent_trace_flags): of these flags it takes the session header alone.
  const bool agent_trace = workload::replays_agent_sessions(run.dataset);
  if (!run.multi_turn.enabled) {
    for (const char* flag : kMultiTurnOnly) {
      if (agent_trace && std::string_view(flag) == "--session-header") continue;
      if (app.count(flag) > 0) throw UsageError(fmt::format("{}: only with --multi-turn", flag));
    }
    return;
  }
  if (!raw.think_time.empty()) {
    auto parsed = workload::parse_think_time(raw.think_time);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      throw UsageError("--think-time: " + *error);
    }
    run.multi_turn.think_time = std::get<workload::ThinkTime>(parsed);
  }
  finish_agent_flags(app, run, raw);
  refuse_conflicts(app, run);
}

}  // namespace bench::cli
