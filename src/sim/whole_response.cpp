// The whole body of a non-streamed response (whole_response.hpp).
#include "bench/sim/whole_response.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "bench/sim/messages_api.hpp"
#include "bench/sim/responses_api.hpp"
#include "bench/util/fnv1a.hpp"

namespace bench::sim {
namespace {

// The answer's text by kind, made by the rules a stream's chunks follow (stream_format.hpp), so
// the whole body says what the chunks together would.
struct AnswerText {
  std::string reasoning;
  std::string answer;     // empty for a tool call
  std::string arguments;  // the tool call's
  std::string_view finish_reason;
};

AnswerText answer_text(const WholeAnswer& whole) {
  AnswerText text;
  const std::int64_t reasoning = std::clamp<std::int64_t>(whole.reasoning_tokens, 0, whole.tokens);
  append_generated_text(text.reasoning, whole.words, 0, reasoning);
  if (!whole.tool_name.empty()) {
    append_tool_call_arguments(text.arguments, whole.words, reasoning, whole.tokens, reasoning,
                               whole.tokens - reasoning);
  } else {
    append_generated_text(text.answer, whole.words, reasoning, whole.tokens - reasoning);
  }
  text.finish_reason = whole.stopped_by_length   ? "length"
                       : whole.tool_name.empty() ? "stop"
                                                 : "tool_calls";
  return text;
}

Usage usage_of(const WholeAnswer& whole) {
  Usage usage{whole.prompt_tokens, whole.tokens, whole.cached_prompt_tokens};
  if (whole.reasoning_tokens >= 0) {
    usage.reasoning_tokens = std::min(whole.tokens, whole.reasoning_tokens);
  }
  return usage;
}

// choices[0].message: the answer as content (null for a tool call, as vLLM sends it), the
// reasoning in the shape's field, the call in tool_calls with the id a stream gives it.
void append_message(std::string& out, const WholeAnswer& whole, const AnswerText& text) {
  out += R"({"role":"assistant","content":)";
  out += whole.tool_name.empty() ? json_string(text.answer) : "null";
  if (!text.reasoning.empty()) {
    fmt::format_to(std::back_inserter(out), R"(,"{}":{})",
                   reasoning_field_name(whole.shape.reasoning_field), json_string(text.reasoning));
  }
  if (!whole.tool_name.empty()) {
    fmt::format_to(std::back_inserter(out),
                   R"(,"tool_calls":[{{"id":"chatcmpl-tool-{}","type":"function",)"
                   R"("function":{{"name":{},"arguments":{}}}}}])",
                   whole.shape.id, json_string(whole.tool_name), json_string(text.arguments));
  }
  out += '}';
}

std::string completion_json(const WholeAnswer& whole, const AnswerText& text) {
  const ResponseShape& shape = whole.shape;
  std::string out;
  fmt::format_to(std::back_inserter(out),
                 R"({{"id":"{}","object":"{}","created":{},"model":{},"choices":[{{"index":0,)",
                 shape.id, shape.chat ? "chat.completion" : "text_completion", shape.created,
                 shape.model_json);
  if (shape.chat) {
    out += R"("message":)";
    append_message(out, whole, text);
  } else {
    out += R"("text":)";
    out += json_string(text.answer);
  }
  out += R"(,"logprobs":null,"finish_reason":)";
  append_finish(out, text.finish_reason);
  out += shape.chat ? "}]" : R"(,"stop_reason":null}])";
  out += R"(,"usage":)";
  append_usage_json(out, usage_of(whole));
  out += '}';
  return out;
}

// The Responses API's output items, with the ids its stream gives them (responses_api.cpp).
std::string responses_output(const WholeAnswer& whole, const AnswerText& text) {
  const std::string& id = whole.shape.id;
  std::string out = "[";
  int index = 0;
  if (!text.reasoning.empty()) {
    fmt::format_to(std::back_inserter(out),
                   R"({{"id":"rs_{}_{}","type":"reasoning","summary":[],"content":[{{"type":)"
                   R"("reasoning_text","text":{}}}],"status":"completed"}},)",
                   id, index++, json_string(text.reasoning));
  }
  if (whole.tool_name.empty()) {
    fmt::format_to(
        std::back_inserter(out),
        R"({{"id":"msg_{}_{}","type":"message","status":"completed","role":)"
        R"("assistant","content":[{{"type":"output_text","text":{},"annotations":[]}}]}})",
        id, index, json_string(text.answer));
  } else {
    fmt::format_to(std::back_inserter(out),
                   R"({{"id":"fc_{}_{}","type":"function_call","call_id":"call_fc_{}_{}",)"
                   R"("name":{},"arguments":{},"status":"completed"}})",
                   id, index, id, index, json_string(whole.tool_name), json_string(text.arguments));
  }
  out += ']';
  return out;
}

std::string response_object_json(const WholeAnswer& whole, const AnswerText& text) {
  const ResponseShape& shape = whole.shape;
  const bool incomplete = text.finish_reason == "length";
  std::string out = fmt::format(
      R"({{"id":"{}","object":"response","created_at":{},"model":{},"status":"{}",)", shape.id,
      shape.created, shape.model_json, incomplete ? "incomplete" : "completed");
  if (incomplete) out += R"("incomplete_details":{"reason":"max_output_tokens"},)";
  out += R"("output":)" + responses_output(whole, text);
  out += R"(,"usage":)" + responses_usage_json(usage_of(whole)) + '}';
  return out;
}

// Anthropic's whole Message: its content blocks (thinking, then text or a tool_use with its
// input as the arguments' JSON object), stop_reason and usage (messages_api.cpp).
std::string message_object_json(const WholeAnswer& whole, const AnswerText& text) {
  const std::string& id = whole.shape.id;
  std::string content = "[";
  if (!text.reasoning.empty()) {
    content += R"({"type":"thinking","thinking":)" + json_string(text.reasoning) + "},";
  }
  if (whole.tool_name.empty()) {
    content += R"({"type":"text","text":)" + json_string(text.answer) + "}";
  } else {
    const nlohmann::json input = nlohmann::json::parse(text.arguments, nullptr, false);
    fmt::format_to(std::back_inserter(content),
                   R"({{"type":"tool_use","id":"toolu_{}","name":{},"input":{}}})", id,
                   json_string(whole.tool_name), input.is_object() ? input.dump() : "{}");
  }
  content += ']';
  return fmt::format(R"({{"id":"{}","type":"message","role":"assistant","model":{},"content":{},)"
                     R"("stop_reason":"{}","stop_sequence":null,"usage":{}}})",
                     id, whole.shape.model_json, content, stop_reason_of(text.finish_reason),
                     messages_usage_json(usage_of(whole)));
}

}  // namespace

WholeBody whole_response_body(const WholeAnswer& whole) {
  const AnswerText text = answer_text(whole);
  WholeBody body;
  body.json = whole.shape.responses  ? response_object_json(whole, text)
              : whole.shape.messages ? message_object_json(whole, text)
                                     : completion_json(whole, text);
  util::Fnv1a64 hash;
  hash.add(text.answer);
  body.answer_hash = hash.value();
  return body;
}

}  // namespace bench::sim
