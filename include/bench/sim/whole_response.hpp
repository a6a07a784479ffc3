#pragma once
// A non-streamed response ("stream": false): the whole answer in one JSON body, sent when the
// generation model has made its last token, so it ends when the stream would have. The same
// answer a stream would carry, in OpenAI's whole shapes (vLLM's ChatCompletionResponse and
// CompletionResponse, vllm/entrypoints/openai/protocol.py; OpenAI's API reference):
//   chat         {"id", "object": "chat.completion", "created", "model", "choices": [{"index": 0,
//                "message": {"role": "assistant", "content", [reasoning field], ["tool_calls"]},
//                "logprobs": null, "finish_reason"}], "usage"}
//   completions  {"id", "object": "text_completion", ..., "choices": [{"index": 0, "text",
//                "logprobs": null, "finish_reason"}], "usage"}
//   responses    the `response` object response.completed carries (responses_api.hpp), its
//                output whole: a reasoning item, then a message or a function_call item.
#include <cstdint>
#include <string>
#include <string_view>

#include "bench/sim/stream_format.hpp"

namespace bench::sim {

/// What one whole answer holds: its words, how many tokens it made and of which kind.
struct WholeAnswer {
  ResponseShape shape;
  GeneratedText words;  // words.answer_start: the reasoning tokens (0 without)
  std::int64_t tokens = 0;
  // Of them, the first this many are reasoning (chat); -1: not a reasoning response (usage then
  // says nothing of reasoning).
  std::int64_t reasoning_tokens = -1;
  // The tokens after the reasoning are a call to this function (chat); empty: text.
  std::string_view tool_name;
  bool stopped_by_length = true;  // finish_reason "length" rather than "stop" / "tool_calls"
  std::int64_t prompt_tokens = 0;
  std::int64_t cached_prompt_tokens = -1;  // -1: the prefix cache is off, not said
};

struct WholeBody {
  std::string json;               // the body, Content-Type application/json
  std::uint64_t answer_hash = 0;  // FNV-1a 64 of the answer text, as a stream's (truth log)
};

/// The body of `answer` in its shape's API.
WholeBody whole_response_body(const WholeAnswer& answer);

}  // namespace bench::sim
