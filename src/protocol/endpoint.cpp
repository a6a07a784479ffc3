// The endpoint table (endpoint.hpp). OpenAI's API reference documents both rows' bodies and
// chunks (https://platform.openai.com/docs/api-reference/completions,
// https://platform.openai.com/docs/api-reference/chat-streaming); vLLM's and SGLang's servers
// send the same shapes.
#include "bench/protocol/endpoint.hpp"

#include <algorithm>
#include <array>

#include "bench/protocol/chunk_scanner.hpp"
#include "bench/protocol/messages.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/responses.hpp"

namespace bench::protocol {
namespace {

using metrics::Figure;

// OpenAI's usage object of chat and completions chunks (vLLM's UsageInfo,
// vllm/entrypoints/openai/protocol.py, with prompt_tokens_details and, for reasoning parsers,
// completion_tokens_details).
constexpr UsageSchema kChatUsage{"usage.prompt_tokens", "usage.completion_tokens",
                                 "usage.prompt_tokens_details.cached_tokens",
                                 "usage.completion_tokens_details.reasoning_tokens"};

// The Responses API's usage, in its final response object (responses.hpp); a whole body is that
// object, its usage at the top.
constexpr UsageSchema kResponsesUsage{"response.usage.input_tokens", "response.usage.output_tokens",
                                      "response.usage.input_tokens_details.cached_tokens",
                                      "response.usage.output_tokens_details.reasoning_tokens"};

// Anthropic's usage (messages.hpp): the prompt is input_tokens plus the cache's reads and
// writes; the output in message_delta is cumulative.
constexpr UsageSchema kMessagesUsage{
    "message_start: message.usage.input_tokens + cache_read_input_tokens + "
    "cache_creation_input_tokens",
    "message_delta: usage.output_tokens (cumulative)",
    "message_start: message.usage.cache_read_input_tokens", ""};

constexpr std::array kEndpoints = {
    EndpointSpec{
        .id = Endpoint::chat,
        .name = "chat",
        .path = "/v1/chat/completions",
        .help = "chat (/v1/chat/completions)",
        .input = InputShape::messages,
        .token_ids = false,
        .per_chunk_usage = true,
        .prompt_body = chat_prompt_body,
        .messages_body = chat_messages_body,
        .named_events = false,
        .interpret = interpret_chunk_into,
        .interpret_whole = interpret_completion_body,
        .usage = kChatUsage,
        .figures = {Figure::ttft, Figure::token_gaps, Figure::output_tokens, Figure::cached_input,
                    Figure::reasoning, Figure::tool_calls, Figure::images},
    },
    // A prompt's chunks carry choices[0].text only: no reasoning field, no tool calls, no
    // image parts.
    EndpointSpec{
        .id = Endpoint::completions,
        .name = "completions",
        .path = "/v1/completions",
        .help = "completions (/v1/completions)",
        .input = InputShape::prompt,
        .token_ids = true,
        .per_chunk_usage = true,
        .prompt_body = completions_prompt_body,
        .messages_body = nullptr,
        .named_events = false,
        .interpret = interpret_chunk_into,
        .interpret_whole = interpret_completion_body,
        .usage = kChatUsage,
        .figures = {Figure::ttft, Figure::token_gaps, Figure::output_tokens, Figure::cached_input},
    },
    // Its image inputs (input_image parts) are not sent: --images-per-request stays chat's.
    EndpointSpec{
        .id = Endpoint::responses,
        .name = "responses",
        .path = "/v1/responses",
        .help = "responses (/v1/responses)",
        .input = InputShape::messages,
        .token_ids = false,
        .per_chunk_usage = false,
        .prompt_body = responses_prompt_body,
        .messages_body = responses_messages_body,
        .named_events = true,
        .interpret = interpret_responses_event,
        .interpret_whole = interpret_responses_body,
        .usage = kResponsesUsage,
        .figures = {Figure::ttft, Figure::token_gaps, Figure::output_tokens, Figure::cached_input,
                    Figure::reasoning, Figure::tool_calls, Figure::images},
    },
    // Anthropic's Messages API (messages.hpp): no reasoning token count in its usage (thinking is
    // timed, and counted by a tokenizer where one is given).
    EndpointSpec{
        .id = Endpoint::messages,
        .name = "messages",
        .path = "/v1/messages",
        .help = "messages (/v1/messages, Anthropic's Messages API)",
        .input = InputShape::messages,
        .token_ids = false,
        .per_chunk_usage = false,
        .prompt_body = messages_prompt_body,
        .messages_body = messages_messages_body,
        .named_events = true,
        .interpret = interpret_messages_event,
        .interpret_whole = interpret_messages_body,
        .usage = kMessagesUsage,
        .figures = {Figure::ttft, Figure::token_gaps, Figure::output_tokens, Figure::cached_input,
                    Figure::reasoning, Figure::tool_calls, Figure::images},
        .key_header = "x-api-key",
        .key_prefix = "",
        .fixed_header = "anthropic-version: 2023-06-01",
    },
};

}  // namespace

std::span<const EndpointSpec> endpoints() { return kEndpoints; }

const EndpointSpec& endpoint_spec(Endpoint endpoint) {
  const auto row =
      std::find_if(kEndpoints.begin(), kEndpoints.end(),
                   [endpoint](const EndpointSpec& spec) { return spec.id == endpoint; });
  return row != kEndpoints.end() ? *row : kEndpoints.front();
}

std::optional<Endpoint> find_endpoint(std::string_view name) {
  for (const EndpointSpec& spec : kEndpoints) {
    if (spec.name == name) return spec.id;
  }
  return std::nullopt;
}

std::string_view endpoint_name(Endpoint endpoint) { return endpoint_spec(endpoint).name; }

std::string_view endpoint_path(Endpoint endpoint) { return endpoint_spec(endpoint).path; }

std::vector<std::string> endpoint_headers(Endpoint endpoint, std::string_view api_key) {
  const EndpointSpec& spec = endpoint_spec(endpoint);
  std::vector<std::string> headers;
  if (!api_key.empty()) {
    std::string line(spec.key_header);
    line += ": ";
    line += spec.key_prefix;
    line += api_key;
    headers.push_back(std::move(line));
  }
  if (!spec.fixed_header.empty()) headers.emplace_back(spec.fixed_header);
  return headers;
}

bool takes_messages(Endpoint endpoint) {
  return endpoint_spec(endpoint).input == InputShape::messages;
}

bool produces(Endpoint endpoint, metrics::Figure figure) {
  return endpoint_spec(endpoint).figures.has(figure);
}

std::string endpoints_producing(metrics::Figure figure) {
  std::vector<std::string_view> producing;
  for (const EndpointSpec& spec : kEndpoints) {
    if (spec.figures.has(figure)) producing.push_back(spec.name);
  }
  std::string names;  // "chat", "chat or responses", "chat, responses or messages"
  for (std::size_t i = 0; i < producing.size(); ++i) {
    if (i > 0) names += i + 1 == producing.size() ? " or " : ", ";
    names += producing[i];
  }
  return names;
}

}  // namespace bench::protocol
