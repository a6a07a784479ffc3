// The simulator's Messages API (messages_api.hpp).
#include "bench/sim/messages_api.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api_as_chat.hpp"
#include "bench/images/image_parts.hpp"

namespace bench::sim {
namespace {

using nlohmann::json;

MessagesAsChat refuse_messages(std::string message) { return {std::nullopt, std::move(message)}; }

std::string block_text(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const json& block : content) {
    if (block.is_object() && block.value("type", "") == "text") text += block.value("text", "");
  }
  return text;
}

// An image block's source as chat's image_url part: base64 as a data URL, a url as it is.
json chat_image(const json& block) {
  const json source = block.value("source", json::object());
  if (source.value("type", "") == "base64") {
    std::string url = "data:";
    url += source.value("media_type", "image/png");
    url += ";base64,";
    url += source.value("data", "");
    return images::image_url_part(std::move(url));
  }
  return images::image_url_part(source.value("url", ""));
}

// One Messages turn as the chat messages it amounts to: an assistant's tool_use blocks as its
// tool_calls, a user turn's tool_result blocks as tool messages (before its other content).
void add_turn(const json& turn, json& messages) {
  const std::string role = turn.value("role", "user");
  const json content = turn.value("content", json());
  if (content.is_string()) {
    messages.push_back({{"role", role}, {"content", content}});
    return;
  }
  json parts = json::array();
  json calls = json::array();
  for (const json& block : content.is_array() ? content : json::array()) {
    const std::string type = block.is_object() ? block.value("type", "") : "";
    if (type == "text") {
      parts.push_back({{"type", "text"}, {"text", block.value("text", "")}});
    } else if (type == "image") {
      parts.push_back(chat_image(block));
    } else if (type == "tool_use") {
      calls.push_back({{"id", block.value("id", "")},
                       {"type", "function"},
                       {"function",
                        {{"name", block.value("name", "")},
                         {"arguments", block.value("input", json::object()).dump()}}}});
    } else if (type == "tool_result") {
      messages.push_back({{"role", "tool"},
                          {"tool_call_id", block.value("tool_use_id", "")},
                          {"content", block_text(block.value("content", json()))}});
    }
  }
  if (parts.empty() && calls.empty()) return;
  // Text alone is chat's plain string content, so the prompt is counted, cached and matched to a
  // known answer exactly as chat's.
  const bool text_only =
      !parts.empty() && std::all_of(parts.begin(), parts.end(),
                                    [](const json& p) { return p.value("type", "") == "text"; });
  json flat = text_only ? json(std::string()) : json();
  if (text_only) {
    for (const json& part : parts) flat.get_ref<std::string&>() += part.value("text", "");
  }
  json message = {{"role", role},
                  {"content", text_only       ? flat
                              : parts.empty() ? json(nullptr)
                                              : parts}};
  if (!calls.empty()) message["tool_calls"] = std::move(calls);
  messages.push_back(std::move(message));
}

json chat_tool(const json& tool) {
  if (!tool.is_object()) return tool;
  json function = {{"name", tool.value("name", "")},
                   {"parameters", tool.value("input_schema", json::object())}};
  if (tool.contains("description")) function["description"] = tool["description"];
  return {{"type", "function"}, {"function", std::move(function)}};
}

json chat_tool_choice(const json& choice) {
  const std::string type = choice.is_object() ? choice.value("type", "auto") : "auto";
  if (type == "any") return "required";
  if (type == "tool")
    return {{"type", "function"}, {"function", {{"name", choice.value("name", "")}}}};
  return type;
}

}  // namespace

MessagesAsChat chat_body_of_messages(std::string_view body) {
  const json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return refuse_messages("invalid_request_error: the body must be a JSON object");
  }
  if (!parsed.contains("max_tokens") || !parsed["max_tokens"].is_number_integer()) {
    return refuse_messages("invalid_request_error: max_tokens: Field required");
  }
  const auto turns = parsed.find("messages");
  if (turns == parsed.end() || !turns->is_array()) {
    return refuse_messages("invalid_request_error: messages: Field required");
  }
  json chat = parsed;
  chat.erase("system");
  chat["messages"] = json::array();
  if (const auto system = parsed.find("system"); system != parsed.end()) {
    chat["messages"].push_back({{"role", "system"}, {"content", block_text(*system)}});
  }
  for (const json& turn : *turns) add_turn(turn, chat["messages"]);
  return {chat_body_with_tools(chat, parsed, chat_tool, chat_tool_choice), {}};
}

std::string messages_usage_json(const Usage& usage) {
  const std::int64_t cached = std::max<std::int64_t>(0, usage.cached_tokens);
  return fmt::format(R"({{"input_tokens":{},"cache_creation_input_tokens":0,)"
                     R"("cache_read_input_tokens":{},"output_tokens":{}}})",
                     usage.prompt_tokens - cached, cached, usage.completion_tokens);
}

std::string_view stop_reason_of(std::string_view finish_reason) {
  if (finish_reason == "length") return "max_tokens";
  if (finish_reason == "tool_calls") return "tool_use";
  return "end_turn";
}

void MessagesEvents::event(std::string& out, std::string_view type, std::string_view fields) {
  const std::string_view end = shape_.crlf ? "\r\n" : "\n";
  fmt::format_to(std::back_inserter(out), R"(event: {}{}data: {{"type":"{}"{}{}}}{}{})", type, end,
                 type, fields.empty() ? "" : ",", fields, end, end);
}

void MessagesEvents::begin(std::string& out, const Usage& start) {
  Usage usage = start;
  usage.completion_tokens = 0;
  event(out, "message_start",
        fmt::format(R"("message":{{"id":"{}","type":"message","role":"assistant","content":[],)"
                    R"("model":{},"stop_reason":null,"stop_sequence":null,"usage":{}}})",
                    shape_.id, shape_.model_json, messages_usage_json(usage)));
}

void MessagesEvents::open(std::string& out, Block block, std::string_view name) {
  close(out);
  block_ = block;
  ++index_;
  const std::string content =
      block == Block::thinking ? R"({"type":"thinking","thinking":""})"
      : block == Block::text
          ? R"({"type":"text","text":""})"
          : fmt::format(R"({{"type":"tool_use","id":"toolu_{}_{}","name":{},"input":{{}}}})",
                        shape_.id, index_, json_string(name));
  event(out, "content_block_start",
        fmt::format(R"("index":{},"content_block":{})", index_, content));
}

void MessagesEvents::close(std::string& out) {
  if (block_ == Block::none) return;
  event(out, "content_block_stop", fmt::format(R"("index":{})", index_));
  block_ = Block::none;
}

void MessagesEvents::reasoning(std::string& out, std::string_view text) {
  if (text.empty()) return;
  if (block_ != Block::thinking) open(out, Block::thinking, {});
  event(out, "content_block_delta",
        fmt::format(R"("index":{},"delta":{{"type":"thinking_delta","thinking":{}}})", index_,
                    json_string(text)));
}

void MessagesEvents::answer(std::string& out, std::string_view text) {
  if (text.empty()) return;
  if (block_ != Block::text) open(out, Block::text, {});
  event(out, "content_block_delta",
        fmt::format(R"("index":{},"delta":{{"type":"text_delta","text":{}}})", index_,
                    json_string(text)));
}

void MessagesEvents::tool_call(std::string& out, std::string_view name,
                               std::string_view arguments) {
  if (!name.empty() || block_ != Block::tool_use)
    open(out, Block::tool_use, name.empty() ? "tool" : name);
  if (arguments.empty()) return;
  event(out, "content_block_delta",
        fmt::format(R"("index":{},"delta":{{"type":"input_json_delta","partial_json":{}}})", index_,
                    json_string(arguments)));
}

void MessagesEvents::finish(std::string& out, std::string_view finish_reason, const Usage* usage) {
  close(out);
  const std::string usage_field =
      usage == nullptr
          ? ""
          : fmt::format(R"(,"usage":{{"output_tokens":{}}})", usage->completion_tokens);
  event(out, "message_delta",
        fmt::format(R"("delta":{{"stop_reason":"{}","stop_sequence":null}}{})",
                    stop_reason_of(finish_reason), usage_field));
  event(out, "message_stop", "");
}

}  // namespace bench::sim
