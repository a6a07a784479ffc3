#pragma once
// Chat's messages as the Responses API's input (private to src/protocol): the history bench
// keeps in chat's shape, sent as OpenAI's Responses API reference defines its input items.
#include <nlohmann/json.hpp>

namespace bench::protocol {

/// `messages` (chat's: {"role", "content", "tool_calls", "tool_call_id"}) as input items:
///   - a content part {"type": "text"} is "input_text", {"type": "image_url", "image_url":
///     {"url"}} is {"type": "input_image", "image_url": URL};
///   - an assistant reply that called tools is its text, when it said any, as an assistant
///     message, then one {"type": "function_call", "call_id", "name", "arguments"} per call;
///   - a tool message is {"type": "function_call_output", "call_id", "output"};
///   - every other message keeps its role and content.
nlohmann::json responses_input(const nlohmann::json& messages);

}  // namespace bench::protocol
