#pragma once
// Chat's messages as the Messages API's "system" and "messages" (private to src/protocol).
#include <nlohmann/json.hpp>

namespace bench::protocol {

struct MessagesInput {
  nlohmann::json system;    // the system messages' text joined, or null when there is none
  nlohmann::json messages;  // user and assistant turns, alternating
};

/// `messages` (chat's: {"role", "content", "tool_calls", "tool_call_id"}) in the Messages API's
/// shapes: system text to `system`; an assistant's tool calls as {"type": "tool_use", "id",
/// "name", "input"} blocks after its text; a tool message as a user turn's {"type":
/// "tool_result", "tool_use_id", "content"} block; image_url parts with a data URL as {"type":
/// "image", "source": {"type": "base64", "media_type", "data"}} (another URL as a "url" source);
/// consecutive turns of one role merged into one.
MessagesInput messages_input(const nlohmann::json& messages);

}  // namespace bench::protocol
