#pragma once
// The bytes the embedded server sends, in the shapes vLLM sends them: completions chunks with
// choices[0].text, chat chunks with a role-only first delta and then content deltas, the
// finish_reason on the last text chunk, a final `choices: []` chunk carrying `usage` when
// include_usage is asked, then `data: [DONE]`. Errors are {"error": {message, type, code}}.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench::sim {

/// The delta field a reasoning model's thinking streams in: reasoning_content (SGLang, DeepSeek's
/// API, older vLLM) or reasoning (newer vLLM).
enum class ReasoningField { reasoning_content, reasoning };

std::string_view reasoning_field_name(ReasoningField field);

/// What stays the same across one response's chunks.
struct ResponseShape {
  bool chat = false;
  // POST /v1/responses: the chat answer (chat is true) rendered as Responses API events
  // (responses_api.hpp) rather than chat chunks.
  bool responses = false;
  // POST /v1/messages: the chat answer rendered as Anthropic's Messages events (messages_api.hpp).
  bool messages = false;
  std::string id;            // "cmpl-17" or "chatcmpl-17"; also the key of the truth log
  std::string model_json;    // the model name as a JSON string literal, quotes included
  std::int64_t created = 0;  // Unix seconds, as OpenAI's "created"
  bool crlf = false;         // end SSE lines with CRLF rather than LF (a server quirk on demand)
  ReasoningField reasoning_field = ReasoningField::reasoning_content;
};

struct Usage {
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  // Prompt tokens served by the prefix cache, sent as vLLM does (prompt_tokens_details
  // .cached_tokens, vllm/entrypoints/openai/protocol.py); -1 = not disclosed, no details sent.
  std::int64_t cached_tokens = -1;
  // Of completion_tokens, those spent reasoning, sent as completion_tokens_details
  // .reasoning_tokens (OpenAI, vLLM, SGLang); -1 = not a reasoning response, no details sent.
  std::int64_t reasoning_tokens = -1;
};

/// A JSON string literal (quotes included) for `text`.
std::string json_string(std::string_view text);

/// Appends the text of `count` generated tokens, starting at token `first` of a response whose
/// words are chosen by `seed`: each token is one word with a leading space (" the").
void append_token_text(std::string& out, std::uint64_t seed, std::int64_t first,
                       std::int64_t count);

/// What the generated words say (--answers): `canned`, the right answer to the answer check's
/// known-answer prompts (answer_check/known_answers.hpp) and random words to any other;
/// `random`, random words always (a model with random weights); `repeat`, one word over and
/// over (a looping server); `empty`, chunks with no text at all.
enum class SimAnswers { canned, random, repeat, empty };

std::string_view sim_answers_name(SimAnswers answers);
std::optional<SimAnswers> parse_sim_answers(std::string_view name);

/// The words of one response.
struct GeneratedText {
  SimAnswers answers = SimAnswers::random;
  std::uint64_t seed = 0;  // picks the random words (append_token_text)
  // canned: the known answer, one token per whitespace-separated word, starting at token
  // `answer_start` (after the reasoning); the tokens before it are random words. Empty: none.
  std::string_view canned;
  std::int64_t answer_start = 0;
};

/// Appends the text of tokens [first, first + count) of `text`, each with a leading space.
void append_generated_text(std::string& out, const GeneratedText& text, std::int64_t first,
                           std::int64_t count);

/// Appends the argument text tokens [first, first + count) of a tool call make, the call being
/// tokens [call_start, call_end) of `text`: its first token is its name (no argument text), the
/// others the words of {"text": "<words>"}, the last closing it, so a whole call's arguments
/// parse as JSON. A stream sends it fragment by fragment, a whole body at once.
void append_tool_call_arguments(std::string& out, const GeneratedText& text,
                                std::int64_t call_start, std::int64_t call_end, std::int64_t first,
                                std::int64_t count);

// Each of these appends one whole SSE event ("data: ...", a blank line) to `out`. `usage`, when
// not null, is sent on the chunk (vLLM's continuous_usage_stats); finish_reason empty = null.
void append_role_event(std::string& out, const ResponseShape& shape, const Usage* usage);
void append_text_event(std::string& out, const ResponseShape& shape, std::string_view text,
                       std::string_view finish_reason, const Usage* usage);
/// A chat chunk of a reasoning model: `reasoning` in the shape's reasoning field and, when not
/// empty, `answer` as content beside it (the chunk where thinking ends and the answer starts, as
/// vLLM's reasoning parsers send it).
void append_reasoning_event(std::string& out, const ResponseShape& shape,
                            std::string_view reasoning, std::string_view answer,
                            std::string_view finish_reason, const Usage* usage);
/// A chat chunk of a tool call, as vLLM's serving_chat.py streams its tool parser's DeltaToolCall
/// (vllm/entrypoints/openai/serving_chat.py): a non-empty `name` starts call 0 (its id, type and
/// name, hermes-style with no arguments key unless `arguments` is not empty); otherwise the
/// fragment adds `arguments` to it. `reasoning`, when not empty, rides in the reasoning field.
void append_tool_call_event(std::string& out, const ResponseShape& shape,
                            std::string_view reasoning, std::string_view name,
                            std::string_view arguments, std::string_view finish_reason,
                            const Usage* usage);
void append_usage_event(std::string& out, const ResponseShape& shape, const Usage& usage);
/// The usage object chat and completions send: {"prompt_tokens", "total_tokens",
/// "completion_tokens"[, "prompt_tokens_details": {"cached_tokens"}][,
/// "completion_tokens_details": {"reasoning_tokens"}]}.
void append_usage_json(std::string& out, const Usage& usage);
/// "stop", "length" or the like as a JSON string; empty as null.
void append_finish(std::string& out, std::string_view finish_reason);
void append_done_event(std::string& out, const ResponseShape& shape);
/// An SSE comment line (": text"), as servers send for keep-alive.
void append_comment_event(std::string& out, const ResponseShape& shape, std::string_view text);
/// An error object inside a 200 stream: data: {"error": {...}}.
void append_stream_error_event(std::string& out, const ResponseShape& shape,
                               std::string_view message);
/// A data event that is not JSON: a chunk cut off inside a string (a fault on demand).
void append_malformed_event(std::string& out, const ResponseShape& shape);

/// The head of a streamed 200 response: SSE over chunked transfer coding. `llama_keep_alive`
/// adds llama.cpp's "Keep-Alive: timeout=5, max=100", which it sends before closing anyway.
void append_stream_head(std::string& out, bool keep_alive, bool llama_keep_alive);
/// A whole response with a Content-Length body; 429 and 503 carry "Retry-After: 1".
void append_simple_response(std::string& out, int status, std::string_view content_type,
                            std::string_view body, bool keep_alive);
/// "Not Found" for 404, and so on.
std::string_view reason_phrase(int status);
/// The OpenAI error type of a status: not_found_error, server_error, invalid_request_error...
std::string_view error_type(int status);

/// Anthropic's error type of a status (https://docs.anthropic.com/en/api/errors):
/// invalid_request_error, authentication_error, not_found_error, rate_limit_error, api_error,
/// overloaded_error (529, and the simulator's 503)...
std::string_view anthropic_error_type(int status);

/// GET /v1/models.
std::string models_body(std::string_view model, std::int64_t created,
                        std::int64_t max_model_len = 1'048'576);

/// {"error": {"message", "type", "code"}}, as vLLM and llama.cpp shape it.
std::string error_body(std::string_view message, std::string_view type, int code);

/// {"type": "error", "error": {"type", "message"}}: Anthropic's error body, and the data of its
/// `error` event (https://docs.anthropic.com/en/api/messages-streaming, "Error events").
std::string anthropic_error_body(std::string_view message, std::string_view type);

/// HTTP/1.1 chunked transfer coding: "<hex size>\r\n<payload>\r\n".
void append_http_chunk(std::string& out, std::string_view payload);
/// The last chunk of a chunked body: "0\r\n\r\n".
void append_last_http_chunk(std::string& out);

}  // namespace bench::sim
