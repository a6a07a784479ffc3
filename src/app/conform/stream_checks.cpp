#include "stream_checks.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "exchange.hpp"

namespace bench::app::conform {

namespace {

using protocol::Endpoint;

constexpr std::string_view kShortPrompt = "Say hello in one short sentence.";
constexpr std::int64_t kShortAnswerTokens = 16;
// Long enough for a prefix cache to keep blocks of it (vLLM's 16 tokens, OpenAI's 1,024-token
// minimum), short enough for a small context.
constexpr std::int64_t kCachedPromptWords = 1100;
constexpr std::size_t kArgumentChars = 40;  // of a tool call's arguments, in the table

Verdict failed(const ConformServer& server, const Answer& answer) {
  return {Holds::fails, failure_text(server, answer)};
}

// A streamed answer on `endpoint`: text chunks, then a clean end.
Verdict streamed(const ConformServer& server, Endpoint endpoint) {
  const protocol::RequestOptions options = request_options(server, endpoint, kShortAnswerTokens);
  const Answer answer = send(server, endpoint, streamed_body(options, kShortPrompt));
  if (!answer.record.ok()) return failed(server, answer);
  const std::size_t chunks = answer.record.text_chunk_ns.size();
  if (chunks == 0) return {Holds::fails, "a clean stream with no text chunk"};
  return {
      Holds::holds,
      fmt::format("{} text chunks, finish_reason '{}', {}", chunks, answer.record.finish_reason,
                  answer.record.saw_done ? "then data: [DONE]" : "no [DONE] (ended by the close)")};
}

bool counted_by_usage(const metrics::RequestRecord& record) {
  return record.prompt_token_source == metrics::TokenSource::usage &&
         record.completion_token_source == metrics::TokenSource::usage && record.prompt_tokens > 0;
}

// A prompt of `words` words that differ from one another, the same on every call.
std::string long_prompt(std::int64_t words) {
  static constexpr std::string_view kWords[] = {"river", "stone", "lamp",  "orange", "field",
                                                "cloud", "tower", "quiet", "paper",  "garden",
                                                "north", "glass", "bread", "winter", "signal"};
  std::string prompt = "Summarize this list in one word:";
  for (std::int64_t i = 0; i < words; ++i) {
    prompt += ' ';
    prompt += kWords[static_cast<std::size_t>(i * 7 + i / 15) % std::size(kWords)];
  }
  return prompt;
}

}  // namespace

Verdict check_streamed_chat(const ConformServer& server) {
  return streamed(server, Endpoint::chat);
}

Verdict check_streamed_completions(const ConformServer& server) {
  return streamed(server, Endpoint::completions);
}

Verdict check_usage_asked(const ConformServer& server) {
  const protocol::RequestOptions options =
      request_options(server, Endpoint::chat, kShortAnswerTokens);
  const Answer answer = send(server, Endpoint::chat, streamed_body(options, kShortPrompt));
  if (!answer.record.ok()) return failed(server, answer);
  if (!counted_by_usage(answer.record)) {
    return {Holds::fails,
            "no usage with prompt_tokens and completion_tokens (bench would estimate from chunks)"};
  }
  return {Holds::holds, fmt::format("prompt_tokens {}, completion_tokens {}",
                                    answer.record.prompt_tokens, answer.record.completion_tokens)};
}

Verdict check_usage_unasked(const ConformServer& server) {
  protocol::RequestOptions options = request_options(server, Endpoint::chat, kShortAnswerTokens);
  options.extra_body = {{"stream_options", nullptr}};  // merge patch: the key removed
  const Answer answer = send(server, Endpoint::chat, streamed_body(options, kShortPrompt));
  if (!answer.record.ok()) return failed(server, answer);
  if (!counted_by_usage(answer.record)) {
    return {Holds::holds, "a clean stream; no usage unasked (as OpenAI's API)"};
  }
  return {Holds::holds, fmt::format("a clean stream; usage sent unasked: prompt_tokens {}",
                                    answer.record.prompt_tokens)};
}

Verdict check_cached_tokens(const ConformServer& server) {
  std::int64_t words = kCachedPromptWords;
  if (server.max_model_len) words = std::min(words, *server.max_model_len / 2);
  const protocol::RequestOptions options = request_options(server, Endpoint::chat, 1);
  const std::string body = streamed_body(options, long_prompt(words));
  const Answer first = send(server, Endpoint::chat, body);
  if (!first.record.ok()) return failed(server, first);
  const Answer second = send(server, Endpoint::chat, body);
  if (!second.record.ok()) return failed(server, second);
  const metrics::RequestRecord& record = second.record;
  if (record.cached_prompt_token_source == metrics::CachedTokenSource::none) {
    return {Holds::not_shown, "not disclosed: no prompt_tokens_details.cached_tokens"};
  }
  if (record.prompt_tokens >= 0 && record.cached_prompt_tokens > record.prompt_tokens) {
    return {Holds::fails, fmt::format("cached_tokens {} exceeds prompt_tokens {}",
                                      record.cached_prompt_tokens, record.prompt_tokens)};
  }
  if (record.cached_prompt_tokens <= 0) {
    return {Holds::not_shown, "disclosed, 0 cached on the second send (prefix caching off?)"};
  }
  return {Holds::holds,
          fmt::format("second send: {} of {} prompt tokens cached ({})",
                      record.cached_prompt_tokens, record.prompt_tokens,
                      metrics::cached_token_source_name(record.cached_prompt_token_source))};
}

Verdict check_reasoning(const ConformServer& server) {
  const protocol::RequestOptions options = request_options(server, Endpoint::chat, 64);
  const Answer answer =
      send(server, Endpoint::chat,
           streamed_body(options,
                         "What is 17 times 23? Think it through, then answer with the number."));
  if (!answer.record.ok()) return failed(server, answer);
  const metrics::RequestRecord& record = answer.record;
  if (record.reasoning_chunks > 0) {
    return {Holds::holds, fmt::format("{} reasoning deltas; {} reasoning tokens ({})",
                                      record.reasoning_chunks, record.reasoning_tokens,
                                      metrics::token_source_name(record.reasoning_token_source))};
  }
  if (record.reasoning_token_source == metrics::TokenSource::usage && record.reasoning_tokens > 0) {
    return {Holds::fails,
            fmt::format("usage counts {} reasoning tokens, but no delta carried reasoning_content "
                        "or reasoning",
                        record.reasoning_tokens)};
  }
  return {Holds::not_shown, "the model did not reason (no reasoning deltas, none counted)"};
}

Verdict check_tool_calls(const ConformServer& server) {
  protocol::RequestOptions options = request_options(server, Endpoint::chat, 64);
  options.tools = nlohmann::json::parse(R"([{"type": "function", "function": {
      "name": "get_weather", "description": "The weather in a city",
      "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                     "required": ["city"]}}}])");
  options.tool_choice = "required";
  const Answer answer =
      send(server, Endpoint::chat, streamed_body(options, "What is the weather in Paris?"));
  const long status = answer.fetched.http_status;
  if (status >= 400 && status < 500) {
    return {Holds::not_shown, "tools refused: " + failure_text(server, answer)};
  }
  if (!answer.record.ok()) return failed(server, answer);
  if (answer.tool_calls.empty()) {
    return {Holds::fails, "tool_choice 'required', but no tool_calls delta (answered text)"};
  }
  const protocol::StreamedToolCall& call = answer.tool_calls.front();
  const nlohmann::json arguments = nlohmann::json::parse(call.arguments, nullptr, false);
  if (call.name.empty() || !arguments.is_object()) {
    return {Holds::fails, fmt::format("a tool call without a name or JSON-object arguments: "
                                      "'{}' '{}'",
                                      call.name, call.arguments.substr(0, kArgumentChars))};
  }
  std::string shown = arguments.dump();
  if (shown.size() > kArgumentChars) shown = shown.substr(0, kArgumentChars) + "...";
  return {Holds::holds, fmt::format("{} call(s); {}({}) from {} deltas", answer.tool_calls.size(),
                                    call.name, shown, answer.record.tool_call_chunks)};
}

}  // namespace bench::app::conform
