#pragma once
// The tail every named-events API's request shares when read as the chat request it amounts to
// (responses_api.cpp, messages_api.cpp): its tools and tool_choice in chat's shapes, usage asked
// for when streamed (both APIs always carry their usage), and the chat body written.
#include <string>

#include <nlohmann/json.hpp>

namespace bench::sim {

/// `chat` (the API's body with its messages already chat's) finished from `parsed` (the API's
/// body): `as_chat_tool` turns one of its tools into chat's, `as_chat_choice` its tool_choice.
template <typename ToolFn, typename ChoiceFn>
std::string chat_body_with_tools(nlohmann::json& chat, const nlohmann::json& parsed,
                                 ToolFn as_chat_tool, ChoiceFn as_chat_choice) {
  if (const auto tools = parsed.find("tools"); tools != parsed.end() && tools->is_array()) {
    chat["tools"] = nlohmann::json::array();
    for (const nlohmann::json& tool : *tools) chat["tools"].push_back(as_chat_tool(tool));
  }
  if (const auto choice = parsed.find("tool_choice"); choice != parsed.end()) {
    chat["tool_choice"] = as_chat_choice(*choice);
  }
  if (chat.value("stream", false) == true) chat["stream_options"] = {{"include_usage", true}};
  return chat.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bench::sim
