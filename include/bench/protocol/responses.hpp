#pragma once
// OpenAI's Responses API (POST /v1/responses) as one endpoint unit: its request body and the
// meaning of each event of its stream. Its row in the endpoint table (endpoint.cpp) names them.
//
// The body: {"model", "input": [{"role", "content"}...], "max_output_tokens", "stream": true
// (false for one whole response object), ...}; chat's --tools, --tool-choice and --response-format
// are sent in the Responses shapes (a function tool's fields at the top of the tool, "text":
// {"format"}). Sources: OpenAI's API reference
// (https://platform.openai.com/docs/api-reference/responses/create) and vLLM's ResponsesRequest
// (vllm/entrypoints/openai/protocol.py; docs.vllm.ai, "responses/protocol"), which also takes
// ignore_eos.
//
// The stream: named SSE events ("event: response.output_text.delta"), each data object carrying
// its "type" again, and no [DONE]: it ends with response.completed (or response.incomplete,
// response.failed). Sources: OpenAI's streaming events reference
// (https://platform.openai.com/docs/api-reference/responses-streaming) and vLLM's streaming
// (vllm/entrypoints/openai/serving_responses.py). What bench reads of each event:
//   response.created, response.in_progress      the response id
//   response.output_text.delta                  delta: answer text
//   response.reasoning_text.delta,              delta: reasoning text
//   response.reasoning_summary_text.delta
//   response.output_item.added (function_call)  item.name: a tool call starts (its name is
//                                               generated tokens, as chat's first tool-call delta)
//   response.function_call_arguments.delta      delta: argument text of a tool call
//   response.completed / response.incomplete    response.usage: input_tokens, output_tokens,
//                                               input_tokens_details.cached_tokens,
//                                               output_tokens_details.reasoning_tokens; the end
//   response.failed, error                      an error inside the stream
// Everything else (content_part.added, *.done, output_item.done...) carries no new token.
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "bench/protocol/openai.hpp"

namespace bench::protocol {

/// The body with one user message made of `prompt`.
std::string responses_prompt_body(const RequestOptions& options, std::string_view prompt);

/// The body with `messages` ({"role", "content"} objects) as its input, as they are.
std::string responses_messages_body(const RequestOptions& options, const nlohmann::json& messages);

/// What one event's data says, in chat's terms (Chunk): a delta's text, reasoning or tool-call
/// fragment; the usage of the final response; its end as a finish reason ("stop", "length" for
/// an incomplete response cut by max_output_tokens, else the incomplete reason). Never throws.
void interpret_responses_event(std::string_view data, Chunk& chunk);

/// A whole non-streamed response ("stream": false: the `response` object that
/// response.completed carries) in chat's terms: output[]'s reasoning items (reasoning_text
/// content, else summary_text), message output_text and function_call items (each a whole call
/// at its output index), and usage and the end as the final event's. Never throws.
void interpret_responses_body(std::string_view body, Chunk& chunk);

}  // namespace bench::protocol
