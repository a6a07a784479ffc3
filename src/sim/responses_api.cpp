// The simulator's Responses API (responses_api.hpp).
#include "bench/sim/responses_api.hpp"

#include <iterator>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api_as_chat.hpp"
#include "bench/images/image_parts.hpp"

namespace bench::sim {
namespace {

using nlohmann::json;

ResponsesAsChat refuse_responses(std::string message) { return {std::nullopt, std::move(message)}; }

// The Responses API's function tool {"type": "function", "name", "description", "parameters"}
// as chat's {"type": "function", "function": {...}}.
json chat_tool(const json& tool) {
  if (!tool.is_object() || tool.contains("function")) return tool;
  json function = tool;
  function.erase("type");
  return {{"type", "function"}, {"function", std::move(function)}};
}

json chat_tool_choice(const json& choice) {
  if (choice.is_object() && choice.contains("name") && !choice.contains("function")) {
    return {{"type", "function"}, {"function", {{"name", choice["name"]}}}};
  }
  return choice;
}

// An input message's content parts in chat's names: "input_text" and "output_text" are "text",
// and {"type": "input_image", "image_url": URL} is {"type": "image_url", "image_url": {"url":
// URL}}, so the chat path counts and caches an image as it does chat's.
json chat_message(json message) {
  if (!message.is_object()) return message;
  const auto content = message.find("content");
  if (content == message.end() || !content->is_array()) return message;
  for (json& part : *content) {
    const std::string type = part.is_object() ? part.value("type", "") : "";
    if (type == "input_text" || type == "output_text") {
      part["type"] = "text";
    } else if (type == "input_image") {
      const json& image = part["image_url"];
      const json url = image.is_object() ? image.value("url", json()) : image;
      part = images::image_url_part(url.is_string() ? url.get<std::string>() : std::string());
    }
  }
  return message;
}

// An input item's part of the chat messages it amounts to: a function_call joins the assistant
// reply before it (its text, or an assistant message of calls alone), a function_call_output is
// a tool message. OpenAI's Responses API has no "tool" role and no "tool_calls" on a message: a
// history in chat's shape is refused as OpenAI refuses it (the error names the item), so a client
// that sends one cannot pass here.
std::optional<std::string> add_chat_message(const json& item, std::size_t at, json& messages) {
  const std::string type = item.is_object() ? item.value("type", "") : "";
  if (type == "function_call") {
    json call = {{"id", item.value("call_id", "")},
                 {"type", "function"},
                 {"function",
                  {{"name", item.value("name", "")}, {"arguments", item.value("arguments", "")}}}};
    if (messages.empty() || messages.back().value("role", "") != "assistant") {
      messages.push_back({{"role", "assistant"}, {"content", nullptr}});
    }
    json& reply = messages.back();
    if (!reply.contains("tool_calls")) reply["tool_calls"] = json::array();
    reply["tool_calls"].push_back(std::move(call));
    return std::nullopt;
  }
  if (type == "function_call_output") {
    messages.push_back({{"role", "tool"},
                        {"tool_call_id", item.value("call_id", "")},
                        {"content", item.value("output", "")}});
    return std::nullopt;
  }
  if (item.is_object() && item.value("role", "") == "tool") {
    return fmt::format(
        "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and "
        "'user'. (input[{}].role)",
        at);
  }
  if (item.is_object() && item.contains("tool_calls")) {
    return fmt::format("Unknown parameter: 'input[{}].tool_calls'.", at);
  }
  messages.push_back(chat_message(item));
  return std::nullopt;
}

}  // namespace

ResponsesAsChat chat_body_of_responses(std::string_view body) {
  json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return refuse_responses("request body is not valid JSON");
  if (!parsed.is_object()) return refuse_responses("request body must be a JSON object");
  const auto input = parsed.find("input");
  if (input == parsed.end() || !(input->is_string() || input->is_array())) {
    return refuse_responses("'input' must be a string or an array of messages");
  }
  json chat = parsed;
  chat.erase("input");
  chat["messages"] = json::array();
  if (input->is_string()) {
    chat["messages"].push_back({{"role", "user"}, {"content", *input}});
  } else {
    for (std::size_t at = 0; at < input->size(); ++at) {
      if (auto refusal = add_chat_message((*input)[at], at, chat["messages"])) {
        return refuse_responses(std::move(*refusal));
      }
    }
  }
  chat.erase("max_output_tokens");
  if (const auto max = parsed.find("max_output_tokens"); max != parsed.end()) {
    chat["max_tokens"] = *max;
  }
  return {chat_body_with_tools(chat, parsed, chat_tool, chat_tool_choice), {}};
}

std::string responses_usage_json(const Usage& usage) {
  return fmt::format(R"({{"input_tokens":{},"input_tokens_details":{{"cached_tokens":{}}},)"
                     R"("output_tokens":{},"output_tokens_details":{{"reasoning_tokens":{}}},)"
                     R"("total_tokens":{}}})",
                     usage.prompt_tokens, std::max<std::int64_t>(0, usage.cached_tokens),
                     usage.completion_tokens, std::max<std::int64_t>(0, usage.reasoning_tokens),
                     usage.prompt_tokens + usage.completion_tokens);
}

void ResponsesEvents::event(std::string& out, std::string_view type, std::string_view fields) {
  const std::string_view end = shape_.crlf ? "\r\n" : "\n";
  fmt::format_to(std::back_inserter(out),
                 R"(event: {}{}data: {{"type":"{}",{},"sequence_number":{}}}{}{})", type, end, type,
                 fields, sequence_++, end, end);
}

std::string ResponsesEvents::response_json(std::string_view status, const Usage* usage,
                                           std::string_view finish_reason) const {
  std::string out =
      fmt::format(R"({{"id":"{}","object":"response","created_at":{},"model":{},"status":"{}",)",
                  shape_.id, shape_.created, shape_.model_json, status);
  if (status == "incomplete") {
    out += R"("incomplete_details":{"reason":"max_output_tokens"},)";
  }
  // The final output lists the function call, so a reader can tell the answer called a tool
  // (chat's finish_reason "tool_calls"); the text items are in their own *.done events.
  out += called_ && finish_reason == "tool_calls"
             ? fmt::format(R"("output":[{{"type":"function_call","name":{}}}],)",
                           json_string(call_name_))
             : std::string(R"("output":[],)");
  out += R"("usage":)";
  out += usage == nullptr ? "null" : responses_usage_json(*usage);
  out += '}';
  return out;
}

void ResponsesEvents::begin(std::string& out, const Usage& /*start*/) {
  const std::string response = response_json("in_progress", nullptr, "");
  event(out, "response.created", fmt::format(R"("response":{})", response));
  event(out, "response.in_progress", fmt::format(R"("response":{})", response));
}

void ResponsesEvents::open(std::string& out, Item item, std::string_view name,
                           std::string_view arguments) {
  close(out);
  item_ = item;
  ++output_index_;
  item_text_.clear();
  switch (item) {
    case Item::reasoning:
      item_id_ = fmt::format("rs_{}_{}", shape_.id, output_index_);
      event(out, "response.output_item.added",
            fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"reasoning",)"
                        R"("summary":[],"content":[],"status":"in_progress"}})",
                        output_index_, item_id_));
      return;
    case Item::message:
      item_id_ = fmt::format("msg_{}_{}", shape_.id, output_index_);
      event(out, "response.output_item.added",
            fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"message",)"
                        R"("status":"in_progress","role":"assistant","content":[]}})",
                        output_index_, item_id_));
      event(out, "response.content_part.added",
            fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,)"
                        R"("part":{{"type":"output_text","text":"","annotations":[]}})",
                        item_id_, output_index_));
      return;
    case Item::function_call:
      // The name, and any argument text made with it, arrive with the item, as its first
      // generated tokens (chat's first tool-call delta carries the same).
      item_id_ = fmt::format("fc_{}_{}", shape_.id, output_index_);
      call_name_ = std::string(name);
      called_ = true;
      item_text_ = std::string(arguments);
      event(out, "response.output_item.added",
            fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"function_call",)"
                        R"("call_id":"call_{}","name":{},"arguments":{},"status":"in_progress"}})",
                        output_index_, item_id_, item_id_, json_string(name),
                        json_string(arguments)));
      return;
    case Item::none: return;
  }
}

void ResponsesEvents::close(std::string& out) {
  const std::string text = json_string(item_text_);
  switch (item_) {
    case Item::none: return;
    case Item::reasoning:
      event(out, "response.reasoning_text.done",
            fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,"text":{})", item_id_,
                        output_index_, text));
      event(
          out, "response.output_item.done",
          fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"reasoning","summary":[],)"
                      R"("content":[{{"type":"reasoning_text","text":{}}}],"status":"completed"}})",
                      output_index_, item_id_, text));
      break;
    case Item::message: {
      const std::string part =
          fmt::format(R"({{"type":"output_text","text":{},"annotations":[]}})", text);
      event(out, "response.output_text.done",
            fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,"text":{})", item_id_,
                        output_index_, text));
      event(out, "response.content_part.done",
            fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,"part":{})", item_id_,
                        output_index_, part));
      event(out, "response.output_item.done",
            fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"message",)"
                        R"("status":"completed","role":"assistant","content":[{}]}})",
                        output_index_, item_id_, part));
      break;
    }
    case Item::function_call:
      event(out, "response.function_call_arguments.done",
            fmt::format(R"("item_id":"{}","output_index":{},"arguments":{})", item_id_,
                        output_index_, text));
      event(out, "response.output_item.done",
            fmt::format(R"("output_index":{},"item":{{"id":"{}","type":"function_call",)"
                        R"("call_id":"call_{}","name":{},"arguments":{},"status":"completed"}})",
                        output_index_, item_id_, item_id_, json_string(call_name_), text));
      break;
  }
  item_ = Item::none;
}

void ResponsesEvents::reasoning(std::string& out, std::string_view text) {
  if (text.empty()) return;
  if (item_ != Item::reasoning) open(out, Item::reasoning, {}, {});
  item_text_ += text;
  event(out, "response.reasoning_text.delta",
        fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,"delta":{})", item_id_,
                    output_index_, json_string(text)));
}

void ResponsesEvents::answer(std::string& out, std::string_view text) {
  if (item_ != Item::message) open(out, Item::message, {}, {});
  item_text_ += text;
  event(out, "response.output_text.delta",
        fmt::format(R"("item_id":"{}","output_index":{},"content_index":0,"delta":{})", item_id_,
                    output_index_, json_string(text)));
}

void ResponsesEvents::tool_call(std::string& out, std::string_view name,
                                std::string_view arguments) {
  if (!name.empty()) {
    open(out, Item::function_call, name, arguments);
    return;
  }
  if (item_ != Item::function_call) open(out, Item::function_call, "tool", {});
  item_text_ += arguments;
  event(out, "response.function_call_arguments.delta",
        fmt::format(R"("item_id":"{}","output_index":{},"delta":{})", item_id_, output_index_,
                    json_string(arguments)));
}

void ResponsesEvents::finish(std::string& out, std::string_view finish_reason, const Usage* usage) {
  close(out);
  const bool incomplete = finish_reason == "length";
  event(out, incomplete ? "response.incomplete" : "response.completed",
        fmt::format(R"("response":{})",
                    response_json(incomplete ? "incomplete" : "completed", usage, finish_reason)));
}

}  // namespace bench::sim
