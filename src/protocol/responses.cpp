// The Responses API unit (responses.hpp).
#include "bench/protocol/responses.hpp"

#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "bench/util/text.hpp"
#include "request_body.hpp"
#include "responses_input.hpp"
#include "server_json.hpp"

namespace bench::protocol {
namespace {

using nlohmann::json;
using server_json::count_field;
using server_json::string_field;

// Chat's {"type": "function", "function": {"name", "description", "parameters"}} as the
// Responses API's {"type": "function", "name", "description", "parameters"}.
json responses_tools(const json& chat_tools) {
  json tools = json::array();
  for (const json& tool : chat_tools) {
    if (!tool.is_object() || !tool.contains("function") || !tool["function"].is_object()) {
      tools.push_back(tool);
      continue;
    }
    json flat = tool["function"];
    flat["type"] = "function";
    tools.push_back(std::move(flat));
  }
  return tools;
}

// tool_choice: the keywords as they are; chat's named function {"type": "function",
// "function": {"name"}} as {"type": "function", "name"}.
json responses_tool_choice(const json& choice) {
  if (choice.is_object() && choice.contains("function") && choice["function"].is_object() &&
      choice["function"].contains("name")) {
    return {{"type", "function"}, {"name", choice["function"]["name"]}};
  }
  return choice;
}

// response_format {"type": "json_schema", "json_schema": {"name", "schema", "strict"}} as
// text.format {"type": "json_schema", "name", "schema", "strict"}; other types as they are.
json responses_text_format(const json& response_format) {
  if (!response_format.is_object()) return response_format;
  json format = response_format;
  if (const auto schema = format.find("json_schema");
      schema != format.end() && schema->is_object()) {
    const json fields = *schema;
    format.erase("json_schema");
    for (const auto& [key, value] : fields.items()) format[key] = value;
  }
  return format;
}

std::string finish_responses_body(const RequestOptions& options, json& body) {
  request_body::add_common(options, body, "max_output_tokens");
  if (!options.tools.is_null()) body["tools"] = responses_tools(options.tools);
  if (!options.tool_choice.is_null())
    body["tool_choice"] = responses_tool_choice(options.tool_choice);
  if (!options.response_format.is_null()) {
    body["text"] = {{"format", responses_text_format(options.response_format)}};
  }
  request_body::merge_extra(options, body);
  return request_body::written(body);
}

// usage: {"input_tokens", "input_tokens_details": {"cached_tokens"}, "output_tokens",
// "output_tokens_details": {"reasoning_tokens"}, "total_tokens"}.
void read_responses_usage(const json& response, Chunk& chunk) {
  const auto usage = response.find("usage");
  if (usage == response.end() || !usage->is_object()) return;
  chunk.prompt_tokens = count_field(*usage, "input_tokens");
  chunk.completion_tokens = count_field(*usage, "output_tokens");
  if (const auto details = usage->find("input_tokens_details");
      details != usage->end() && details->is_object()) {
    chunk.cached_tokens = count_field(*details, "cached_tokens");
  }
  if (const auto details = usage->find("output_tokens_details");
      details != usage->end() && details->is_object()) {
    chunk.reasoning_tokens = count_field(*details, "reasoning_tokens");
  }
}

bool output_has_function_call(const json& response) {
  const auto output = response.find("output");
  if (output == response.end() || !output->is_array()) return false;
  for (const json& item : *output) {
    if (item.is_object() && item.value("type", "") == "function_call") return true;
  }
  return false;
}

// The end of the response, in chat's finish reasons: "stop" ("tool_calls" when it called a
// function), "length" when max_output_tokens cut it, else the reason it is incomplete.
void read_responses_end(const json& response, Chunk& chunk) {
  const std::string* status = string_field(response, "status");
  if (status != nullptr && *status == "incomplete") {
    const auto details = response.find("incomplete_details");
    const std::string* reason = details != response.end() && details->is_object()
                                    ? string_field(*details, "reason")
                                    : nullptr;
    chunk.finish_reason = reason == nullptr                ? "incomplete"
                          : *reason == "max_output_tokens" ? "length"
                                                           : *reason;
    return;
  }
  chunk.finish_reason = output_has_function_call(response) ? "tool_calls" : "stop";
}

// The response object of response.created, .in_progress, .completed, .incomplete, .failed.
void read_response_object(const json& event, std::string_view type, Chunk& chunk) {
  const auto response = event.find("response");
  if (response == event.end() || !response->is_object()) return;
  if (const std::string* id = string_field(*response, "id")) chunk.id = *id;
  if (type == "response.failed") {
    chunk.kind = Chunk::Kind::error;
    const auto error = response->find("error");
    chunk.error_message = error != response->end() && !error->is_null()
                              ? server_json::message_of_error(*error)
                              : "response.failed without an error";
    return;
  }
  if (type == "response.completed" || type == "response.incomplete") {
    read_responses_usage(*response, chunk);
    read_responses_end(*response, chunk);
  }
}

// A function call's first event: the item with its name and call_id, kept as the first
// fragment of the call at its output_index (as chat's first tool-call delta), so a session
// answers it by its id.
void read_added_output_item(const json& event, Chunk& chunk) {
  const auto item = event.find("item");
  if (item == event.end() || !item->is_object() || item->value("type", "") != "function_call") {
    return;
  }
  const std::string* name = string_field(*item, "name");
  if (name == nullptr || name->empty()) return;
  chunk.tool_call_names.push_back(*name);
  chunk.tool_call_text += *name;
  Chunk::ToolCallFragment fragment;
  fragment.index = count_field(event, "output_index");
  fragment.name = *name;
  if (const std::string* call_id = string_field(*item, "call_id")) fragment.id = *call_id;
  if (const std::string* arguments = string_field(*item, "arguments")) {
    chunk.tool_call_text += *arguments;
    fragment.arguments = *arguments;
  }
  chunk.tool_call_fragments.push_back(std::move(fragment));
}

void read_responses_delta(const json& event, std::string_view type, Chunk& chunk) {
  const std::string* delta = string_field(event, "delta");
  if (delta == nullptr) return;
  if (type == "response.output_text.delta") {
    chunk.text = *delta;
  } else if (type == "response.function_call_arguments.delta") {
    chunk.tool_call_text = *delta;
    Chunk::ToolCallFragment fragment;
    fragment.index = count_field(event, "output_index");
    fragment.arguments = *delta;
    chunk.tool_call_fragments.push_back(std::move(fragment));
  } else {  // reasoning text or its summary
    chunk.text = *delta;
    chunk.reasoning_size = delta->size();
  }
}

// The text of an output item's parts of type `type` ("output_text", "reasoning_text",
// "summary_text") under `key` ("content", "summary"), joined.
std::string item_text(const json& item, const char* key, std::string_view type) {
  std::string text;
  const auto parts = item.find(key);
  if (parts == item.end() || !parts->is_array()) return text;
  for (const json& part : *parts) {
    if (!part.is_object() || part.value("type", "") != type) continue;
    if (const std::string* piece = string_field(part, "text")) text += *piece;
  }
  return text;
}

// A whole function_call item as the one fragment of its call, at its place in the output.
void read_function_call_item(const json& item, std::int64_t place, Chunk& chunk) {
  Chunk::ToolCallFragment fragment;
  fragment.index = place;
  if (const std::string* call_id = string_field(item, "call_id")) fragment.id = *call_id;
  if (const std::string* name = string_field(item, "name"); name && !name->empty()) {
    fragment.name = *name;
    chunk.tool_call_names.push_back(*name);
  }
  if (const std::string* arguments = string_field(item, "arguments")) {
    fragment.arguments = *arguments;
  }
  chunk.tool_call_text += fragment.name + fragment.arguments;
  chunk.tool_call_fragments.push_back(std::move(fragment));
}

// A whole response's output items: reasoning (its reasoning_text parts, else its summary), the
// message's output_text parts, function calls; the reasoning first in chunk.text, as a stream's.
void read_output_items(const json& output, Chunk& chunk) {
  std::string reasoning;
  std::string answer;
  std::int64_t place = -1;
  for (const json& item : output) {
    ++place;
    if (!item.is_object()) continue;
    const std::string type = item.value("type", "");
    if (type == "reasoning") {
      std::string text = item_text(item, "content", "reasoning_text");
      reasoning += text.empty() ? item_text(item, "summary", "summary_text") : text;
    } else if (type == "message") {
      answer += item_text(item, "content", "output_text");
    } else if (type == "function_call") {
      read_function_call_item(item, place, chunk);
    }
  }
  chunk.text = reasoning + answer;
  chunk.reasoning_size = reasoning.size();
}

}  // namespace

std::string responses_prompt_body(const RequestOptions& options, std::string_view prompt) {
  return responses_messages_body(
      options, json::array({json{{"role", "user"}, {"content", std::string(prompt)}}}));
}

std::string responses_messages_body(const RequestOptions& options, const json& messages) {
  json body = json::object();
  body["input"] = responses_input(messages);
  return finish_responses_body(options, body);
}

void interpret_responses_event(std::string_view data, Chunk& chunk) {
  chunk.reset();
  if (util::trim(data, " \t\r\n") == "[DONE]") {  // not sent by OpenAI, but by some proxies
    chunk.kind = Chunk::Kind::done;
    return;
  }
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
    return;
  }
  if (type == "response.output_text.delta" || type == "response.function_call_arguments.delta" ||
      type == "response.reasoning_text.delta" || type == "response.reasoning_summary_text.delta") {
    read_responses_delta(event, type, chunk);
  } else if (type == "response.output_item.added") {
    read_added_output_item(event, chunk);
  } else if (type.substr(0, 9) == "response.") {
    read_response_object(event, type, chunk);
  }
}

void interpret_responses_body(std::string_view body, Chunk& chunk) {
  const std::optional<json> response = server_json::whole_body_object(body, chunk);
  if (!response) return;
  if (const std::string* status = string_field(*response, "status");
      status && *status == "failed") {
    chunk.kind = Chunk::Kind::error;
    chunk.error_message = "response failed without an error";
    return;
  }
  const auto output = response->find("output");
  if (output == response->end() || !output->is_array()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message = "the body is no response (no output): " + server_json::excerpt(body);
    return;
  }
  if (const std::string* id = string_field(*response, "id")) chunk.id = *id;
  read_output_items(*output, chunk);
  read_responses_usage(*response, chunk);
  read_responses_end(*response, chunk);
}

}  // namespace bench::protocol
