#pragma once
// What a Weka-format trace (weka_trace.hpp) takes from one relayed exchange: the request's
// messages, whether it streamed, and what its response said of its tokens and how it ended.
// The chat completions and completions APIs are read (POST /v1/chat/completions and
// /v1/completions, bodies as protocol/openai.hpp sends them); a response is read as bench's
// client reads it, each SSE data payload through protocol::interpret_chunk, or a whole JSON
// body. The text read stays in memory: the trace keeps counts and hashes of it only.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/wire/recording.hpp"

namespace bench::record {

struct Completion {
  std::string model;      // the request's "model"
  bool streamed = false;  // the request's "stream" is true
  // The prompt as messages ({"role", "content", ...}): chat's "messages" as sent; a completions
  // prompt as one user message.
  nlohmann::json messages;
  bool answers_tool = false;  // the last message's role is "tool": a tool's result goes back
  std::optional<std::int64_t> prompt_tokens;      // usage.prompt_tokens, when the response said
  std::optional<std::int64_t> completion_tokens;  // usage.completion_tokens, likewise
  std::string finish_reason;                      // choices[0].finish_reason; empty when none came
  // What the reply generated: reasoning, answer text, tool calls' names and arguments (the
  // text the output is counted in when usage said nothing).
  std::string reply_text;
  bool replied_reasoning = false;  // some reasoning text came
  bool replied_text = false;       // some answer text came
  bool replied_tool_call = false;  // some tool call came
};

/// The completion an exchange holds; else why it is none, in a few words ("GET /v1/models: not
/// a completion", "status 400", "the request body is not JSON").
std::variant<Completion, std::string> read_completion(const wire::Exchange& exchange);

}  // namespace bench::record
