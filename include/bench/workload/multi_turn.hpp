#pragma once
// Multi-turn conversations (--multi-turn): what a session sends turn after turn. A session is a
// list of user turns; turn k sends the whole history so far, each earlier user turn followed by
// the reply the model actually streamed back for it (not the dataset's reply), then user turn k.
// Between a reply's end and the next turn's send the user "thinks" for a seeded draw of the
// --think-time distribution. Everything here is a pure function of its arguments, so a seeded
// workload sends the same turns whatever the timing; the app's session scheduler
// (app/session_scheduler.hpp) decides when.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/workload/conversation.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::workload {

/// --think-time: seconds between a reply's end and the session's next turn.
struct ThinkTime {
  enum class Kind {
    fixed,        // "S": always S seconds
    exponential,  // "exp:MEAN": exponential with this mean, seconds
    uniform,      // "uniform:A-B": uniform in [A, B] seconds
  };
  Kind kind = Kind::fixed;
  double a_s = 0;  // fixed: the value; exponential: the mean; uniform: the low end
  double b_s = 0;  // uniform: the high end
};

/// Parses a --think-time value: "0.5", "exp:2", "uniform:1-3" (seconds, finite, >= 0, A <= B,
/// a mean > 0). The error says what is wrong with `spec` (the caller names the flag).
std::variant<ThinkTime, std::string> parse_think_time(std::string_view spec);

/// The spelling parse_think_time reads back: "0.5", "exp:2", "uniform:1-3".
std::string think_time_text(const ThinkTime& think);

/// The think time before turn `turn` (>= 1) of session `session`, ns: a draw seeded by (seed,
/// session, turn) alone, so it does not depend on which session ended first.
std::int64_t think_time_ns(const ThinkTime& think, std::uint64_t seed, std::uint64_t session,
                           std::uint64_t turn);

struct MultiTurnOptions {
  bool enabled = false;  // --multi-turn
  // --turns K: turns per session; with sharegpt a cap on each conversation's human turns.
  // nullopt: sharegpt's own count (other datasets need it).
  std::optional<std::int64_t> turns;
  ThinkTime think_time;  // --think-time; default 0 s
  // --sessions N: sessions open at once (thinking or waiting on a reply); nullopt: the
  // concurrency of the point.
  std::optional<std::int64_t> sessions;
  std::string session_header;  // --session-header NAME: a per-session id on every turn; empty: none
  // Agent sessions (agent_session.hpp). --tool-result-len N: words of each tool result; set, the
  // turns after the first answer the model's tool calls. nullopt: plain multi-turn.
  std::optional<std::int64_t> tool_result_len;
  // --session-context N: tokens; an agent session ends after the first turn whose prompt reached
  // N (the server's prompt_tokens, else words). nullopt: --turns alone ends it.
  std::optional<std::int64_t> session_context;
  // --fan-out K: an agent session's first reply starts K branches (sub-agents) that share it
  // and go on apart, each to its own end. nullopt: one branch.
  std::optional<std::int64_t> fan_out;
  bool agent() const { return tool_result_len.has_value(); }
};

/// The results' "config" record of the options (only written for a multi-turn run).
nlohmann::json multi_turn_options_json(const MultiTurnOptions& options);

/// One user turn of a session.
struct UserTurn {
  std::string text;
  std::int64_t input_len = 0;   // words of `text` (tokens with a tokenizer)
  std::int64_t output_len = 0;  // max_tokens to ask
  // The first turn's: the system prompt the session starts with (--prefix-share's, shared by
  // every session of the point), sent before every turn's history. Empty: none.
  std::string system_text = {};
};

/// The user turns of session `session` (0-based) of prompt stream `stream`. With
/// `conversations` (a sharegpt source opened with follow_ups, whose prompts carry their
/// conversation's later human turns) the conversation's own, capped at `turns`; otherwise
/// `turns` prompts of the source, turn k of the session being request session x turns + k of
/// the stream, so sessions never share a prompt. The first turn carries the prompt's system text
/// (--prefix-share's), which the session then sends first on every turn.
std::vector<UserTurn> session_turns(const PromptSource& source, std::uint64_t stream,
                                    std::uint64_t session, std::optional<std::int64_t> turns,
                                    bool conversations);

}  // namespace bench::workload
