#include "bench/protocol/openai.hpp"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "bench/protocol/chunk_scanner.hpp"
#include "bench/util/text.hpp"
#include "bench/util/utf8.hpp"
#include "request_body.hpp"
#include "server_json.hpp"

namespace bench::protocol {

// The readers of server JSON that the endpoints' units share (server_json.hpp).
namespace server_json {

using nlohmann::json;

constexpr std::size_t kMaxExcerptBytes = 200;

// What a body or an SSE data field may be padded with.
constexpr std::string_view kSpace = " \t\r\n";

// At most kMaxExcerptBytes of a raw body, fit for a report: valid UTF-8 kept (never cut inside
// a character), invalid bytes replaced by U+FFFD and control characters by spaces, because the
// body may be anything (an HTML error page, binary) and the report is written as JSON.
std::string excerpt(std::string_view raw) {
  const std::string_view text = util::trim(raw, kSpace);
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = util::utf8_sequence_length(text, i);
    const std::string_view piece =
        length == 0 ? std::string_view("\xEF\xBF\xBD") : text.substr(i, length);
    if (out.size() + piece.size() > kMaxExcerptBytes) break;
    if (length == 1 && static_cast<unsigned char>(text[i]) < 0x20) {
      out.push_back(' ');
    } else {
      out.append(piece);
    }
    i += length == 0 ? 1 : length;
  }
  return out;
}

// A token count: a JSON number that is a non-negative integer (or an integral float).
std::optional<std::int64_t> count_field(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_number_integer() && !it->is_number_unsigned()) {
    const auto value = it->get<std::int64_t>();
    if (value < 0) return std::nullopt;
    return value;
  }
  if (it->is_number_unsigned()) {
    const auto value = it->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return std::nullopt;
    }
    return static_cast<std::int64_t>(value);
  }
  if (it->is_number_float()) {
    const double value = it->get<double>();
    if (std::isfinite(value) && value == std::floor(value) && value >= 0 && value < 9.0e18) {
      return static_cast<std::int64_t>(value);
    }
  }
  return std::nullopt;
}

const std::string* string_field(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return nullptr;
  return it->get_ptr<const std::string*>();
}

// The message of an OpenAI-style error value: {"message": ...}, or a bare string. Falls back to
// the value itself, shortened, so an unusual shape still says something.
// Whether `value` nests arrays or objects more than `limit` levels deep. Iterative on purpose:
// json::dump recurses once per level, and a hostile server's error value 200,000 levels deep
// (400 KB, under the line cap) overflowed the stack (found by fuzz/stream_fuzzer.cpp).
bool nested_deeper_than(const json& value, std::size_t limit) {
  std::vector<std::pair<const json*, std::size_t>> pending = {{&value, 1}};
  while (!pending.empty()) {
    const auto [node, depth] = pending.back();
    pending.pop_back();
    if (!node->is_structured()) continue;
    if (depth > limit) return true;
    for (const json& child : *node) pending.emplace_back(&child, depth + 1);
  }
  return false;
}

std::string message_of_error(const json& error) {
  if (error.is_string()) return error.get<std::string>();
  if (error.is_object()) {
    if (const std::string* message = string_field(error, "message"); message && !message->empty()) {
      return *message;
    }
  }
  constexpr std::size_t kMaxDumpDepth = 64;
  if (nested_deeper_than(error, kMaxDumpDepth)) {
    return "error value nested more than 64 levels deep";
  }
  return excerpt(error.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::optional<json> whole_body_object(std::string_view body, Chunk& chunk) {
  chunk.reset();
  json parsed;
  try {
    parsed = json::parse(body.begin(), body.end());
  } catch (const json::parse_error& error) {
    // The parser stops where the JSON broke: past the body's last byte, it was cut short (an
    // empty body is too: a 200 that ended before its answer).
    const bool cut_short = error.byte > body.size();
    chunk.kind = cut_short ? Chunk::Kind::truncated : Chunk::Kind::malformed;
    chunk.error_message =
        cut_short ? "the body ended inside its JSON (" + std::to_string(body.size()) + " bytes)"
                  : "the body is not JSON: " + excerpt(body);
    return std::nullopt;
  }
  if (!parsed.is_object()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message = "the body is not a JSON object: " + excerpt(body);
    return std::nullopt;
  }
  if (const auto error = parsed.find("error"); error != parsed.end() && !error->is_null()) {
    chunk.kind = Chunk::Kind::error;
    chunk.error_message = message_of_error(*error);
    if (chunk.error_message.empty()) chunk.error_message = "error object without a message";
    return std::nullopt;
  }
  return parsed;
}

}  // namespace server_json

using namespace server_json;

namespace {

// Everything of the body but the input: model, max_tokens, streaming (with usage) or not, options.
// `chat`: the chat API's tools, tool_choice and response_format go too.
void complete_body(const RequestOptions& options, json& body, bool chat) {
  request_body::add_common(options, body, "max_tokens");
  // include_usage makes vLLM and SGLang send the final usage chunk; continuous_usage_stats
  // (vLLM) puts cumulative usage on every chunk, which gives exact tokens per chunk. A whole
  // body always carries usage, and OpenAI refuses stream_options without a stream.
  if (options.stream) {
    body["stream_options"] = json{{"include_usage", true}};
    if (options.continuous_usage_stats) body["stream_options"]["continuous_usage_stats"] = true;
  }
  if (chat) {
    if (!options.tools.is_null()) body["tools"] = options.tools;
    if (!options.tool_choice.is_null()) body["tool_choice"] = options.tool_choice;
    if (!options.response_format.is_null()) body["response_format"] = options.response_format;
  }
  request_body::merge_extra(options, body);
}

std::string finish_body(const RequestOptions& options, json& body, bool chat) {
  complete_body(options, body, chat);
  return request_body::written(body);
}

}  // namespace

namespace request_body {

void add_common(const RequestOptions& options, json& body, const char* max_tokens_key) {
  body["model"] = options.model;
  body[max_tokens_key] = options.max_tokens;
  body["stream"] = options.stream;
  if (options.ignore_eos) body["ignore_eos"] = true;
  if (options.temperature) body["temperature"] = *options.temperature;
}

void merge_extra(const RequestOptions& options, json& body) {
  if (options.extra_body.is_object()) body.merge_patch(options.extra_body);
}

std::string written(const json& body) {
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace request_body

std::string build_request_body(const RequestOptions& options, std::string_view prompt) {
  return endpoint_spec(options.endpoint).prompt_body(options, prompt);
}

std::string build_chat_request_body(const RequestOptions& options, const nlohmann::json& messages) {
  const EndpointSpec& spec = endpoint_spec(options.endpoint);
  if (spec.messages_body != nullptr) return spec.messages_body(options, messages);
  // A prompt endpoint asked for messages anyway sends them, with none of chat's own options.
  json body = json::object();
  body["messages"] = messages;
  return finish_body(options, body, false);
}

std::string completions_prompt_body(const RequestOptions& options, std::string_view prompt) {
  json body = json::object();
  body["prompt"] = std::string(prompt);
  return finish_body(options, body, false);
}

std::string chat_prompt_body(const RequestOptions& options, std::string_view prompt) {
  return chat_messages_body(
      options, json::array({json{{"role", "user"}, {"content", std::string(prompt)}}}));
}

std::string chat_messages_body(const RequestOptions& options, const nlohmann::json& messages) {
  json body = json::object();
  body["messages"] = messages;
  return finish_body(options, body, true);
}

json tool_choice_value(std::string_view choice) {
  if (choice == "auto" || choice == "required" || choice == "none") return std::string(choice);
  return {{"type", "function"}, {"function", {{"name", std::string(choice)}}}};
}

bool asks_per_chunk_usage(const RequestOptions& options) {
  const EndpointSpec& spec = endpoint_spec(options.endpoint);
  if (!spec.per_chunk_usage || !options.stream) return false;
  json body = json::object();
  complete_body(options, body, spec.figures.has(metrics::Figure::tool_calls));
  const auto stream_options = body.find("stream_options");
  if (stream_options == body.end() || !stream_options->is_object()) return false;
  const auto asked = stream_options->find("continuous_usage_stats");
  return asked != stream_options->end() && *asked == true;
}

std::string build_token_ids_request_body(const RequestOptions& options,
                                         const std::vector<std::int32_t>& prompt_ids) {
  json body = json::object();
  body["prompt"] = prompt_ids;
  return finish_body(options, body, false);
}

Chunk interpret_chunk(std::string_view data) {
  // The scanner (chunk_scanner.cpp) reads the usual shapes in one pass; whatever it does not
  // fully understand comes back here, to the DOM parse below.
  Chunk chunk;
  interpret_chunk_into(data, chunk);
  return chunk;
}

namespace {

// delta.tool_calls: [{"index", "id", "type", "function": {"name", "arguments"}}, ...] (OpenAI's
// API reference, chat streaming; vllm/entrypoints/openai/serving_chat.py sends the parsers'
// DeltaToolCall the same way). Names and argument fragments are the call's generated text.
// A whole message's tool_calls (`whole`) are each a whole call, without "index": their place
// in the list is their index, so two calls without ids stay two.
void read_tool_calls(const json& delta, Chunk& chunk, bool whole) {
  const auto calls = delta.find("tool_calls");
  if (calls == delta.end() || !calls->is_array()) return;
  std::int64_t place = -1;
  for (const json& call : *calls) {
    ++place;
    if (!call.is_object()) continue;
    const auto function = call.find("function");
    if (function == call.end() || !function->is_object()) continue;
    Chunk::ToolCallFragment& fragment = chunk.tool_call_fragments.emplace_back();
    fragment.index = count_field(call, "index");
    if (whole && !fragment.index) fragment.index = place;
    if (const std::string* id = string_field(call, "id")) fragment.id = *id;
    if (const std::string* name = string_field(*function, "name"); name && !name->empty()) {
      chunk.tool_call_text += *name;
      chunk.tool_call_names.push_back(*name);
      fragment.name = *name;
    }
    if (const std::string* arguments = string_field(*function, "arguments")) {
      chunk.tool_call_text += *arguments;
      fragment.arguments = *arguments;
    }
  }
}

// choices[0]: /v1/completions carries "text"; /v1/chat/completions a "delta" (a whole body: a
// "message", `whole`) with optional reasoning (reasoning_content: SGLang, DeepSeek, older vLLM;
// reasoning: newer vLLM) and content. The reasoning goes first in chunk.text and is measured by
// reasoning_size.
void read_first_choice(const json& parsed, Chunk& chunk, bool whole = false) {
  const auto choices = parsed.find("choices");
  if (choices == parsed.end() || !choices->is_array() || choices->empty() ||
      !choices->front().is_object()) {
    return;
  }
  chunk.has_choice = true;
  const json& choice = choices->front();
  const json* delta = nullptr;
  if (const auto found = choice.find(whole ? "message" : "delta");
      found != choice.end() && found->is_object()) {
    delta = &*found;
  }
  if (delta != nullptr) {
    const std::string* reasoning = string_field(*delta, "reasoning_content");
    if (!reasoning || reasoning->empty()) reasoning = string_field(*delta, "reasoning");
    if (reasoning) chunk.text = *reasoning;
    chunk.reasoning_size = chunk.text.size();
  }
  if (const std::string* text = string_field(choice, "text")) chunk.text += *text;
  if (delta != nullptr) {
    if (const std::string* content = string_field(*delta, "content")) chunk.text += *content;
    read_tool_calls(*delta, chunk, whole);
  }
  if (const std::string* finish = string_field(choice, "finish_reason")) {
    chunk.finish_reason = *finish;
  }
}

// The token counts a chunk may carry. llama.cpp puts usage on the last content chunk; vLLM and
// SGLang on a final chunk with empty choices; vLLM's continuous_usage_stats on every chunk.
// "usage": null means none.
void read_usage(const json& parsed, Chunk& chunk) {
  if (const auto usage = parsed.find("usage"); usage != parsed.end() && usage->is_object()) {
    chunk.prompt_tokens = count_field(*usage, "prompt_tokens");
    chunk.completion_tokens = count_field(*usage, "completion_tokens");
    if (const auto details = usage->find("completion_tokens_details");
        details != usage->end() && details->is_object()) {
      chunk.reasoning_tokens = count_field(*details, "reasoning_tokens");
    }
    // vLLM sends "prompt_tokens_details": null unless --enable-prompt-tokens-details.
    if (const auto details = usage->find("prompt_tokens_details");
        details != usage->end() && details->is_object()) {
      chunk.cached_tokens = count_field(*details, "cached_tokens");
    }
  }
  // llama.cpp's final chunk carries "timings" (tools/server/server.cpp): prompt_n is the prompt
  // tokens it actually computed, cache_n (newer builds) those it reused from its cache.
  if (const auto timings = parsed.find("timings");
      timings != parsed.end() && timings->is_object()) {
    chunk.timings_prompt_n = count_field(*timings, "prompt_n");
    chunk.timings_cache_n = count_field(*timings, "cache_n");
  }
}

}  // namespace

Chunk interpret_chunk_dom(std::string_view data) {
  Chunk chunk;
  if (util::trim(data, kSpace) == "[DONE]") {
    chunk.kind = Chunk::Kind::done;
    return chunk;
  }
  const json parsed = json::parse(data.begin(), data.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message =
        (parsed.is_discarded() ? "data is not JSON: " : "data is not a JSON object: ") +
        excerpt(data);
    return chunk;
  }
  // An error inside a 200 stream (vLLM, mock-llm): {"error": {"message": ...}} or a string.
  if (const auto error = parsed.find("error"); error != parsed.end() && !error->is_null()) {
    chunk.kind = Chunk::Kind::error;
    chunk.error_message = message_of_error(*error);
    if (chunk.error_message.empty()) chunk.error_message = "error event without a message";
    return chunk;
  }
  chunk.kind = Chunk::Kind::data;
  if (const std::string* id = string_field(parsed, "id")) chunk.id = *id;
  read_first_choice(parsed, chunk);
  read_usage(parsed, chunk);
  return chunk;
}

void interpret_completion_body(std::string_view body, Chunk& chunk) {
  const std::optional<json> parsed = whole_body_object(body, chunk);
  if (!parsed) return;
  const auto choices = parsed->find("choices");
  if (choices == parsed->end() || !choices->is_array() || choices->empty()) {
    chunk.kind = Chunk::Kind::malformed;
    chunk.error_message = "the body is no completion (no choices): " + excerpt(body);
    return;
  }
  if (const std::string* id = string_field(*parsed, "id")) chunk.id = *id;
  read_first_choice(*parsed, chunk, /*whole=*/true);
  read_usage(*parsed, chunk);
}

std::string error_message_from_body(std::string_view body) {
  const json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) {
    if (const auto error = parsed.find("error"); error != parsed.end() && !error->is_null()) {
      std::string message = message_of_error(*error);
      if (!message.empty()) return message;
    }
    if (const std::string* message = string_field(parsed, "message");
        message && !message->empty()) {
      return *message;
    }
    if (const auto detail = parsed.find("detail"); detail != parsed.end()) {
      if (detail->is_string()) return detail->get<std::string>();
      // FastAPI validation errors: "detail": [{"loc": [...], "msg": "...", "type": "..."}].
      if (detail->is_array() && !detail->empty() && detail->front().is_object()) {
        if (const std::string* msg = string_field(detail->front(), "msg")) return *msg;
      }
    }
  }
  return excerpt(body);
}

std::optional<std::string> first_model_id(std::string_view models_body) {
  const json parsed =
      json::parse(models_body.begin(), models_body.end(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  const auto data = parsed.find("data");
  if (data == parsed.end() || !data->is_array()) return std::nullopt;
  for (const json& model : *data) {
    if (!model.is_object()) continue;
    if (const std::string* id = string_field(model, "id"); id && !id->empty()) return *id;
  }
  return std::nullopt;
}

}  // namespace bench::protocol
