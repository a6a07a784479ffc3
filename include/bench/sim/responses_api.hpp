#pragma once
// The embedded server's POST /v1/responses: OpenAI's Responses API over the same simulated
// answer as chat. A Responses request is read as the chat request it amounts to (its input as
// messages, max_output_tokens as max_tokens, its tools in chat's shape), so it is counted,
// batched, cached and logged as chat is; the answer's tokens are then rendered as Responses
// events instead of chat chunks, one event per chunk chat would send, at the same moments.
//
// Shapes: OpenAI's streaming events reference
// (https://platform.openai.com/docs/api-reference/responses-streaming) and vLLM's
// vllm/entrypoints/openai/serving_responses.py (its simple, non-harmony stream): "event: TYPE"
// then "data: {...}" with "type" and "sequence_number"; response.created, response.in_progress;
// per output item response.output_item.added, then for a message response.content_part.added
// and response.output_text.delta events, for reasoning response.reasoning_text.delta, for a
// function call response.function_call_arguments.delta; each item closed by its *.done events
// and response.output_item.done; at the end response.completed, or response.incomplete with
// incomplete_details.reason "max_output_tokens" when the length cut it, carrying usage
// {input_tokens, input_tokens_details.cached_tokens, output_tokens,
// output_tokens_details.reasoning_tokens, total_tokens}. No [DONE].
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/sim/api_events.hpp"
#include "bench/sim/stream_format.hpp"

namespace bench::sim {

/// The chat body a Responses body amounts to: "input" (a string, or {"role", "content"}
/// messages) as "messages", max_output_tokens as max_tokens, function tools and a named
/// tool_choice in chat's shape, usage asked for when streamed (a Responses stream always ends
/// with it); "stream" as sent (absent: false, the API's default, one whole response object).
/// nullopt with the reason when the body is no Responses request the simulator serves.
struct ResponsesAsChat {
  std::optional<std::string> chat_body;
  std::string error;
};
ResponsesAsChat chat_body_of_responses(std::string_view body);

/// The Responses API's usage object: {"input_tokens", "input_tokens_details": {"cached_tokens"},
/// "output_tokens", "output_tokens_details": {"reasoning_tokens"}, "total_tokens"}.
std::string responses_usage_json(const Usage& usage);

/// One streamed response's events, in order: the item open now, the text it holds so far (for
/// its *.done events), the sequence number.
class ResponsesEvents final : public ApiEvents {
 public:
  explicit ResponsesEvents(const ResponseShape& shape) : shape_(shape) {}

  /// response.created and response.in_progress.
  void begin(std::string& out, const Usage& start) override;
  /// Tokens of each kind, in the order the answer makes them: each opens its item when the
  /// one open is of another kind. A function call's first tokens name it (`name` not empty).
  void reasoning(std::string& out, std::string_view text) override;
  void answer(std::string& out, std::string_view text) override;
  void tool_call(std::string& out, std::string_view name, std::string_view arguments) override;
  /// Closes the open item and ends the response: response.completed, or response.incomplete
  /// when finish_reason is "length"; `usage` null = none sent (a fault).
  void finish(std::string& out, std::string_view finish_reason, const Usage* usage) override;

 private:
  enum class Item { none, reasoning, message, function_call };
  void open(std::string& out, Item item, std::string_view name, std::string_view arguments);
  void close(std::string& out);
  void event(std::string& out, std::string_view type, std::string_view fields);
  std::string response_json(std::string_view status, const Usage* usage,
                            std::string_view finish_reason) const;

  ResponseShape shape_;
  std::int64_t sequence_ = 0;
  int output_index_ = -1;
  Item item_ = Item::none;
  std::string item_id_;
  std::string item_text_;  // the open item's text or arguments so far
  std::string call_name_;  // the open function call's name
  bool called_ = false;    // a function call was made (its item listed in the final output)
};

}  // namespace bench::sim
