// The Messages API unit (messages.hpp).
#include "bench/protocol/messages.hpp"

#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "messages_input.hpp"
#include "request_body.hpp"
#include "server_json.hpp"

namespace bench::protocol {
namespace {

using nlohmann::json;
using server_json::count_field;
using server_json::string_field;

// Chat's {"type": "function", "function": {"name", "description", "parameters"}} as
// {"name", "description", "input_schema"}.
json messages_tools(const json& chat_tools) {
  json tools = json::array();
  for (const json& tool : chat_tools) {
    if (!tool.is_object() || !tool.contains("function") || !tool["function"].is_object()) {
      tools.push_back(tool);
      continue;
    }
    const json& function = tool["function"];
    json flat = {{"name", function.value("name", "")}};
    if (function.contains("description")) flat["description"] = function["description"];
    flat["input_schema"] =
        function.contains("parameters") ? function["parameters"] : json{{"type", "object"}};
    tools.push_back(std::move(flat));
  }
  return tools;
}

// tool_choice: "auto", "required" (Anthropic's "any"), "none", or a named function.
json messages_tool_choice(const json& choice) {
  if (choice.is_string()) {
    const std::string word = choice.get<std::string>();
    return {{"type", word == "required" ? "any" : word}};
  }
  if (choice.is_object() && choice.contains("function") && choice["function"].is_object()) {
    return {{"type", "tool"}, {"name", choice["function"].value("name", "")}};
  }
  return choice;
}

std::string finish_messages_body(const RequestOptions& options, json& body) {
  // ignore_eos, when asked, is vLLM's and SGLang's field: Anthropic's API has none.
  request_body::add_common(options, body, "max_tokens");
  if (!options.tools.is_null()) body["tools"] = messages_tools(options.tools);
  if (!options.tool_choice.is_null())
    body["tool_choice"] = messages_tool_choice(options.tool_choice);
  request_body::merge_extra(options, body);
  return request_body::written(body);
}

// usage: the prompt is input_tokens plus the cache's reads and writes (input_tokens alone
// excludes both); the cached part is the reads. `with_output`: output_tokens too (cumulative).
void read_messages_usage(const json& usage, Chunk& chunk, bool with_output) {
  if (!usage.is_object()) return;
  const std::optional<std::int64_t> input = count_field(usage, "input_tokens");
  const std::optional<std::int64_t> read = count_field(usage, "cache_read_input_tokens");
  const std::optional<std::int64_t> created = count_field(usage, "cache_creation_input_tokens");
  if (input) {
    chunk.prompt_tokens = *input + read.value_or(0) + created.value_or(0);
    chunk.cached_tokens = read.value_or(0);
  }
  if (with_output) chunk.completion_tokens = count_field(usage, "output_tokens");
}

std::string finish_reason_of(const std::string& stop_reason) {
  if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return "stop";
  if (stop_reason == "max_tokens") return "length";
  if (stop_reason == "tool_use") return "tool_calls";
  return stop_reason;  // pause_turn, refusal: as the server says them
}

// A tool_use block: its name starts a call, kept as the call's first fragment at its index.
void read_tool_use(const json& block, std::optional<std::int64_t> index, Chunk& chunk) {
  const std::string* name = string_field(block, "name");
  if (name == nullptr || name->empty()) return;
  chunk.tool_call_names.push_back(*name);
  chunk.tool_call_text += *name;
  Chunk::ToolCallFragment fragment;
  fragment.index = index;
  fragment.name = *name;
  if (const std::string* id = string_field(block, "id")) fragment.id = *id;
  chunk.tool_call_fragments.push_back(std::move(fragment));
}

void read_block_delta(const json& event, Chunk& chunk) {
  const auto delta = event.find("delta");
  if (delta == event.end() || !delta->is_object()) return;
  const std::string type = delta->value("type", "");
  if (type == "text_delta") {
    if (const std::string* text = string_field(*delta, "text")) chunk.text = *text;
  } else if (type == "thinking_delta") {
    if (const std::string* thinking = string_field(*delta, "thinking")) {
      chunk.text = *thinking;
      chunk.reasoning_size = thinking->size();
    }
  } else if (type == "input_json_delta") {
    const std::string* partial = string_field(*delta, "partial_json");
    if (partial == nullptr || partial->empty()) return;
    chunk.tool_call_text = *partial;
    Chunk::ToolCallFragment fragment;
    fragment.index = count_field(event, "index");
    fragment.arguments = *partial;
    chunk.tool_call_fragments.push_back(std::move(fragment));
  }
}

void read_message_start(const json& event, Chunk& chunk) {
  const auto message = event.find("message");
  if (message == event.end() || !message->is_object()) return;
  if (const std::string* id = string_field(*message, "id")) chunk.id = *id;
  if (const auto usage = message->find("usage"); usage != message->end()) {
    read_messages_usage(*usage, chunk, /*with_output=*/false);
  }
}

void read_message_delta(const json& event, Chunk& chunk) {
  if (const auto delta = event.find("delta"); delta != event.end() && delta->is_object()) {
    if (const std::string* stop = string_field(*delta, "stop_reason")) {
      chunk.finish_reason = finish_reason_of(*stop);
    }
  }
  const auto usage = event.find("usage");
  if (usage == event.end() || !usage->is_object()) return;
  // Newer servers repeat the input counts here; older ones give only the output so far.
  if (usage->contains("input_tokens")) read_messages_usage(*usage, chunk, true);
  chunk.completion_tokens = count_field(*usage, "output_tokens");
}

// A whole Message's content blocks: thinking first in chunk.text, as a stream's.
void read_content_blocks(const json& content, Chunk& chunk) {
  std::string reasoning;
  std::string answer;
  std::int64_t place = -1;
  for (const json& block : content) {
    ++place;
    if (!block.is_object()) continue;
    const std::string type = block.value("type", "");
    if (type == "text") {
      answer += block.value("text", "");
    } else if (type == "thinking") {
      reasoning += block.value("thinking", "");
    } else if (type == "tool_use") {
      read_tool_use(block, place, chunk);
      const std::string arguments = block.contains("input") ? block["input"].dump() : "{}";
      chunk.tool_call_text += arguments;
      if (!chunk.tool_call_fragments.empty())
        chunk.tool_call_fragments.back().arguments = arguments;
    }
  }
  chunk.text = reasoning + answer;
  chunk.reasoning_size = reasoning.size();
}

}  // namespace

std::string messages_prompt_body(const RequestOptions& options, std::string_view prompt) {
  return messages_messages_body(
      options, json::array({json{{"role", "user"}, {"content", std::string(prompt)}}}));
}

std::string messages_messages_body(const RequestOptions& options, const json& messages) {
  MessagesInput input = messages_input(messages);
  json body = json::object();
  if (!input.system.is_null()) body["system"] = std::move(input.system);
  body["messages"] = std::move(input.messages);
  return finish_messages_body(options, body);
}

void interpret_messages_event(std::string_view data, Chunk& chunk) {
  chunk.reset();
  const json event = json::parse(data.begin(), data.end(), nullptr, /*allow_exceptions=*/false);
  if (event.is_discarded() || !event.is_object()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message =
        (event.is_discarded() ? "data is not JSON: " : "data is not a JSON object: ") +
        server_json::excerpt(data);
    return;
  }
  const std::string* type_field = string_field(event, "type");
  const std::string_view type = type_field != nullptr ? *type_field : std::string_view();
  if (type == "error" || (type.empty() && event.contains("error"))) {
    chunk.kind = Chunk::Kind::error;
    const auto error = event.find("error");
    chunk.error_message = server_json::message_of_error(error != event.end() ? *error : event);
  } else if (type == "content_block_delta") {
    read_block_delta(event, chunk);
  } else if (type == "content_block_start") {
    const auto block = event.find("content_block");
    if (block != event.end() && block->is_object() && block->value("type", "") == "tool_use") {
      read_tool_use(*block, count_field(event, "index"), chunk);
    }
  } else if (type == "message_start") {
    read_message_start(event, chunk);
  } else if (type == "message_delta") {
    read_message_delta(event, chunk);
  }
}

void interpret_messages_body(std::string_view body, Chunk& chunk) {
  const std::optional<json> message = server_json::whole_body_object(body, chunk);
  if (!message) return;
  if (message->value("type", "") == "error") {
    chunk.kind = Chunk::Kind::error;
    const auto error = message->find("error");
    chunk.error_message =
        server_json::message_of_error(error != message->end() ? *error : *message);
    return;
  }
  const auto content = message->find("content");
  if (content == message->end() || !content->is_array()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message = "the body is no message (no content): ";
    chunk.error_message += server_json::excerpt(body);
    return;
  }
  if (const std::string* id = string_field(*message, "id")) chunk.id = *id;
  read_content_blocks(*content, chunk);
  if (const auto usage = message->find("usage"); usage != message->end()) {
    read_messages_usage(*usage, chunk, /*with_output=*/true);
  }
  if (const std::string* stop = string_field(*message, "stop_reason")) {
    chunk.finish_reason = finish_reason_of(*stop);
  }
}

}  // namespace bench::protocol
