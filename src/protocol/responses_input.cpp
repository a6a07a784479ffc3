// Chat's messages as the Responses API's input (responses_input.hpp).
#include "responses_input.hpp"

#include <string>
#include <utility>

#include "server_json.hpp"

namespace bench::protocol {
namespace {

using nlohmann::json;

// A string field of `object` (server_json::string_field), or "" when it is absent or not one.
std::string string_or_empty(const json& object, const char* key) {
  const std::string* text = server_json::string_field(object, key);
  return text != nullptr ? *text : std::string();
}

// A message's content parts in the Responses API's names; string content is kept.
json with_input_parts(json message) {
  const auto content = message.find("content");
  if (content == message.end() || !content->is_array()) return message;
  for (json& part : *content) {
    const std::string type = part.is_object() ? string_or_empty(part, "type") : std::string();
    if (type == "text") {
      part["type"] = "input_text";
    } else if (type == "image_url") {
      const json& image = part["image_url"];
      json url = image.is_object() ? image.value("url", json()) : image;
      part = json{{"type", "input_image"}, {"image_url", std::move(url)}};
    }
  }
  return message;
}

// An assistant reply that called tools: its text, then its calls as function_call items.
void append_reply_with_calls(const json& message, const json& calls, json& input) {
  const std::string text = string_or_empty(message, "content");
  if (!text.empty()) input.push_back({{"role", "assistant"}, {"content", text}});
  for (const json& call : calls) {
    if (!call.is_object()) continue;
    const auto function = call.find("function");
    const bool has_function = function != call.end() && function->is_object();
    input.push_back({{"type", "function_call"},
                     {"call_id", string_or_empty(call, "id")},
                     {"name", has_function ? string_or_empty(*function, "name") : ""},
                     {"arguments", has_function ? string_or_empty(*function, "arguments") : ""}});
  }
}

}  // namespace

json responses_input(const json& messages) {
  if (!messages.is_array()) return messages;
  json input = json::array();
  for (const json& message : messages) {
    if (!message.is_object()) {
      input.push_back(message);
      continue;
    }
    const std::string role = string_or_empty(message, "role");
    const auto calls = message.find("tool_calls");
    if (role == "tool") {
      input.push_back({{"type", "function_call_output"},
                       {"call_id", string_or_empty(message, "tool_call_id")},
                       {"output", string_or_empty(message, "content")}});
    } else if (role == "assistant" && calls != message.end() && calls->is_array()) {
      append_reply_with_calls(message, *calls, input);
    } else {
      input.push_back(with_input_parts(message));
    }
  }
  return input;
}

}  // namespace bench::protocol
