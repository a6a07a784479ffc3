#pragma once
// Anthropic's Messages API (POST /v1/messages; vLLM and SGLang serve it too) as one endpoint
// unit: its request body and the meaning of each event of its stream. Its row in the endpoint
// table (endpoint.cpp) names them. Source: Anthropic's API reference
// (https://docs.anthropic.com/en/api/messages, .../messages-streaming).
//
// The body: {"model", "max_tokens" (required), "messages": [{"role": "user" | "assistant",
// "content": text | blocks}], "system" (top level, not a message), "stream", "tools":
// [{"name", "description", "input_schema"}], "tool_choice": {"type": "auto" | "any" | "none" |
// "tool", "name"}}. Chat's history is sent in its shapes: system messages joined into "system",
// an assistant's tool calls as tool_use blocks, tool messages as a user turn of tool_result
// blocks, consecutive turns of one role merged, data-URL images as base64 image blocks.
//
// The stream: named SSE events, no [DONE]. What bench reads of each:
//   message_start          message.id; message.usage: input_tokens + cache_read_input_tokens
//                          + cache_creation_input_tokens is the prompt (input_tokens alone
//                          excludes the cache's reads and writes), cache_read_input_tokens the
//                          cached part
//   content_block_start    a tool_use block's name: a tool call starts (its id kept)
//   content_block_delta    text_delta: answer text; thinking_delta: reasoning text;
//                          input_json_delta: a tool call's argument text; signature_delta: none
//   message_delta          delta.stop_reason as chat's finish reason (end_turn and
//                          stop_sequence: stop, max_tokens: length, tool_use: tool_calls);
//                          usage.output_tokens, cumulative: the output so far, not a delta
//   error                  {"error": {"type", "message"}} inside the stream
// ping, content_block_stop and message_stop carry no token.
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "bench/protocol/openai.hpp"

namespace bench::protocol {

/// The body with one user message made of `prompt`.
std::string messages_prompt_body(const RequestOptions& options, std::string_view prompt);

/// The body with chat's `messages` sent in the Messages API's shapes (above).
std::string messages_messages_body(const RequestOptions& options, const nlohmann::json& messages);

/// What one event's data says, in chat's terms (Chunk). Never throws.
void interpret_messages_event(std::string_view data, Chunk& chunk);

/// A whole non-streamed Message ({"id", "type": "message", "content": [blocks], "stop_reason",
/// "usage"}) in chat's terms. Never throws.
void interpret_messages_body(std::string_view body, Chunk& chunk);

}  // namespace bench::protocol
