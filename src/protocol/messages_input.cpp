#include "messages_input.hpp"

#include <string>

namespace bench::protocol {

namespace {

using nlohmann::json;

std::string text_of(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const json& part : content) {
    if (part.is_object() && part.value("type", "") == "text") text += part.value("text", "");
  }
  return text;
}

// "data:image/png;base64,AAAA" as a base64 source; any other URL as a url source.
json image_block(const std::string& url) {
  const std::size_t comma = url.find(',');
  if (url.rfind("data:", 0) == 0 && comma != std::string::npos &&
      url.substr(0, comma).find(";base64") != std::string::npos) {
    const std::string media_type = url.substr(5, url.find(';') - 5);
    return {{"type", "image"},
            {"source",
             {{"type", "base64"}, {"media_type", media_type}, {"data", url.substr(comma + 1)}}}};
  }
  return {{"type", "image"}, {"source", {{"type", "url"}, {"url", url}}}};
}

json content_blocks(const json& content) {
  json blocks = json::array();
  if (content.is_string()) {
    if (!content.get<std::string>().empty())
      blocks.push_back({{"type", "text"}, {"text", content}});
    return blocks;
  }
  if (!content.is_array()) return blocks;
  for (const json& part : content) {
    if (!part.is_object()) continue;
    const std::string type = part.value("type", "");
    if (type == "text") {
      blocks.push_back({{"type", "text"}, {"text", part.value("text", "")}});
    } else if (type == "image_url" && part.contains("image_url") && part["image_url"].is_object()) {
      blocks.push_back(image_block(part["image_url"].value("url", "")));
    }
  }
  return blocks;
}

// A tool call's arguments (a JSON text) as the input object; not an object: {}.
json tool_input(const json& call) {
  const json& function = call.contains("function") ? call["function"] : json::object();
  const json input = json::parse(function.value("arguments", "{}"), nullptr, false);
  return input.is_object() ? input : json::object();
}

json assistant_blocks(const json& message) {
  json blocks = content_blocks(message.contains("content") ? message["content"] : json());
  if (const auto calls = message.find("tool_calls"); calls != message.end() && calls->is_array()) {
    for (const json& call : *calls) {
      if (!call.is_object()) continue;
      const json& function = call.contains("function") ? call["function"] : json::object();
      blocks.push_back({{"type", "tool_use"},
                        {"id", call.value("id", "")},
                        {"name", function.value("name", "")},
                        {"input", tool_input(call)}});
    }
  }
  return blocks;
}

json tool_result_block(const json& message) {
  return {{"type", "tool_result"},
          {"tool_use_id", message.value("tool_call_id", "")},
          {"content", text_of(message.contains("content") ? message["content"] : json())}};
}

// Appends a turn, merged into the last when it has the same role.
void append_turn(json& turns, const std::string& role, json blocks) {
  if (blocks.empty()) return;
  if (!turns.empty() && turns.back()["role"] == role) {
    for (json& block : blocks) turns.back()["content"].push_back(std::move(block));
    return;
  }
  turns.push_back({{"role", role}, {"content", std::move(blocks)}});
}

}  // namespace

MessagesInput messages_input(const json& messages) {
  MessagesInput input{json(nullptr), json::array()};
  std::string system;
  for (const json& message : messages) {
    if (!message.is_object()) continue;
    const std::string role = message.value("role", "user");
    const json content = message.contains("content") ? message["content"] : json();
    if (role == "system" || role == "developer") {
      if (!system.empty()) system += "\n\n";
      system += text_of(content);
    } else if (role == "assistant") {
      append_turn(input.messages, "assistant", assistant_blocks(message));
    } else if (role == "tool") {
      append_turn(input.messages, "user", json::array({tool_result_block(message)}));
    } else {
      append_turn(input.messages, "user", content_blocks(content));
    }
  }
  if (!system.empty()) input.system = system;
  return input;
}

}  // namespace bench::protocol
