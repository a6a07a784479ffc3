#pragma once
// The embedded server's POST /v1/messages: Anthropic's Messages API over the same simulated
// answer as chat. A Messages request is read as the chat request it amounts to (its system field
// as a system message, tool_use and tool_result blocks as chat's tool calls and tool messages,
// image blocks as image_url parts), so it is counted, batched, cached and logged as chat is; the
// answer's tokens are rendered as Messages events instead of chat chunks, at the same moments.
//
// Shapes: Anthropic's API reference (https://docs.anthropic.com/en/api/messages and
// .../messages-streaming): message_start (message.usage: input_tokens, which excludes the
// cache's reads, cache_read_input_tokens, cache_creation_input_tokens, output_tokens), one
// content block per kind (content_block_start, content_block_delta with thinking_delta,
// text_delta or input_json_delta, content_block_stop), message_delta (delta.stop_reason,
// usage.output_tokens: cumulative), message_stop. No [DONE].
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/sim/api_events.hpp"
#include "bench/sim/stream_format.hpp"

namespace bench::sim {

/// The chat body a Messages body amounts to; nullopt with the reason (Anthropic's words) when the
/// body is no Messages request (max_tokens is required).
struct MessagesAsChat {
  std::optional<std::string> chat_body;
  std::string error;
};
MessagesAsChat chat_body_of_messages(std::string_view body);

/// Anthropic's usage object: input_tokens (the prompt less its cached part),
/// cache_read_input_tokens (the cached part), cache_creation_input_tokens (0: the simulator's
/// cache writes are not billed apart), output_tokens.
std::string messages_usage_json(const Usage& usage);

/// A chat finish reason as Anthropic's stop_reason: stop as end_turn, length as max_tokens,
/// tool_calls as tool_use.
std::string_view stop_reason_of(std::string_view finish_reason);

/// One streamed Message's events.
class MessagesEvents final : public ApiEvents {
 public:
  explicit MessagesEvents(const ResponseShape& shape) : shape_(shape) {}

  void begin(std::string& out, const Usage& start) override;
  void reasoning(std::string& out, std::string_view text) override;
  void answer(std::string& out, std::string_view text) override;
  void tool_call(std::string& out, std::string_view name, std::string_view arguments) override;
  void finish(std::string& out, std::string_view finish_reason, const Usage* usage) override;

 private:
  enum class Block { none, thinking, text, tool_use };
  void open(std::string& out, Block block, std::string_view name);
  void close(std::string& out);
  void event(std::string& out, std::string_view type, std::string_view fields);

  ResponseShape shape_;
  int index_ = -1;
  Block block_ = Block::none;
};

}  // namespace bench::sim
