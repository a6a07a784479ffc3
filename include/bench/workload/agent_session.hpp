#pragma once
// Agent sessions (--multi-turn --tool-result-len N): the traffic of a tool-using agent. The
// first turn sends the task (the session's first user turn); every later turn sends the whole
// history, the model's replies as it streamed them, tool calls included, and then:
//   - when the last reply called tools, one "tool" message per call, answering its id with a
//     result of N random words (the tool's output: new text the server has never seen);
//   - when it answered in text, the user's next instruction: random words as long as the task.
// Between a reply and the next turn the agent waits on its tools for a --think-time draw. The
// context grows turn after turn until --session-context or --turns ends the session
// (app/session_scheduler.hpp). With --fan-out K the session's first reply starts K branches
// (sub-agents) that share it and go on apart, each drawing by its own branch_key. Everything
// here is a pure function of its arguments.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/workload/conversation.hpp"

namespace bench::workload {

/// What makes an agent session's new text: its seed and prompt stream (so no two sessions, nor
/// two points of a sweep, share a tool result), and the lengths of results and instructions.
struct AgentTurnText {
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;
  std::int64_t tool_result_words = 1;  // --tool-result-len
  std::int64_t follow_up_words = 1;    // the task's length
};

/// The key of branch `branch` of session `session` in an agent session's draws (its tool
/// results, instructions, think times and the ids bench gives calls): the session itself for
/// branch 0, so a run without --fan-out draws what it always did; another for each other branch
/// (sub-sessions that share their session's first turn and diverge at their own tool results).
std::uint64_t branch_key(std::uint64_t session, std::size_t branch);

/// The result of call `call` (0-based) of the reply before turn `turn` of session `session`:
/// `words` random common words.
std::string tool_result_text(const AgentTurnText& text, std::uint64_t session, std::int64_t turn,
                             std::size_t call);

/// The id bench gives a call the server streamed without one, unique in its session.
std::string missing_tool_call_id(std::uint64_t session, std::int64_t turn, std::size_t call);

/// Gives each call without an id the id missing_tool_call_id makes, so every tool message can
/// name the call it answers.
void name_tool_calls(std::vector<ToolCall>& calls, std::uint64_t session, std::int64_t turn);

/// Appends turn `turn` (>= 1) of session `session` to its history: a tool message for each
/// call of the last reply, or, when it made none, the user's next instruction, with the images
/// `images` gives (--images-per-request: a user turn carries its own, as the task did; asked
/// only for an instruction, since tool results carry none). `images` may be empty.
void add_agent_turn(Conversation& history, const AgentTurnText& text, std::uint64_t session,
                    std::int64_t turn,
                    const std::function<std::vector<std::string>()>& images = {});

}  // namespace bench::workload
