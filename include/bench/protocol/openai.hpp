#pragma once
// The OpenAI-compatible wire format: request bodies for /v1/completions and
// /v1/chat/completions, the meaning of one streamed `data:` payload, and of one whole
// (non-streamed) response body. Knows nothing of curl or of sockets.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/protocol/endpoint.hpp"

namespace bench::protocol {

/// Everything that shapes a request body besides the prompt.
struct RequestOptions {
  Endpoint endpoint = Endpoint::chat;
  std::string model;                    // sent as "model"
  std::int64_t max_tokens = 128;        // sent as "max_tokens"
  bool ignore_eos = false;              // sends "ignore_eos": true (vLLM, SGLang, llama.cpp)
  std::optional<double> temperature;    // sent only when set
  bool continuous_usage_stats = false;  // asks vLLM for usage on every chunk
  // "stream": true with stream_options (the answer as an event stream, timed chunk by chunk);
  // false sends "stream": false and no stream_options: the answer comes as one JSON body, read
  // with StreamReader's Delivery::whole_body (no TTFT, no chunk times). Per request.
  bool stream = true;
  // Chat: sent as "tools", "tool_choice" and "response_format" when not null (OpenAI's chat API:
  // tool definitions; "auto" | "required" | "none" | {"type": "function", "function": {"name"}};
  // {"type": "json_schema", ...} for guided decoding).
  nlohmann::json tools;
  nlohmann::json tool_choice;
  nlohmann::json response_format;
  nlohmann::json extra_body = nlohmann::json::object();  // merged last, overriding our keys
};

/// Serialized JSON body of options.endpoint (its row's prompt builder): for chat and
/// completions {"model", "prompt" | "messages":[{"role":"user","content"}], "max_tokens",
/// "stream": true, "stream_options": {"include_usage": true[, "continuous_usage_stats": true]},
/// ...} ("stream": false and no stream_options when options.stream is false), with extra_body
/// merged in (RFC 7386 merge patch).
std::string build_request_body(const RequestOptions& options, std::string_view prompt);

/// The "tool_choice" value of --tool-choice: the keywords as they are, a tool's name as OpenAI's
/// named-function object.
nlohmann::json tool_choice_value(std::string_view choice);

/// The same body with `messages` (a JSON array of {"role", "content"}) sent as they are, for a
/// dataset that gives whole conversations: options.endpoint's messages builder (an endpoint
/// whose input is a prompt takes none: callers ask takes_messages first).
std::string build_chat_request_body(const RequestOptions& options, const nlohmann::json& messages);

// The units of the two OpenAI endpoints, as their table rows (endpoint.cpp) name them.
std::string completions_prompt_body(const RequestOptions& options, std::string_view prompt);
std::string chat_prompt_body(const RequestOptions& options, std::string_view prompt);
std::string chat_messages_body(const RequestOptions& options, const nlohmann::json& messages);

/// Whether the body sent asks for usage on every chunk: stream_options.continuous_usage_stats is
/// true once extra_body is merged (which may add it, or remove it with a null).
bool asks_per_chunk_usage(const RequestOptions& options);

/// The /v1/completions body with the prompt given as token ids ("prompt": [ids]; vLLM, SGLang
/// and llama.cpp take it as is, with no tokenization).
std::string build_token_ids_request_body(const RequestOptions& options,
                                         const std::vector<std::int32_t>& prompt_ids);

/// What one SSE data payload says; or, read by an endpoint's whole-body interpreter, what one
/// whole (non-streamed) response says, as if it were the one chunk of its answer.
struct Chunk {
  enum class Kind {
    done,       // the literal [DONE] sentinel
    data,       // a JSON chunk object (it may carry text, finish_reason, usage, or nothing)
    error,      // a JSON object with an "error" key (an error inside a 200 stream or body)
    malformed,  // not JSON, or JSON that is not an object (a whole body: or not a completion)
    truncated,  // a whole body only: its JSON ends before it is complete (cut short)
  };
  Kind kind = Kind::data;
  // Generated text: delta.reasoning_content (or delta.reasoning) first, then choices[0].text
  // and delta.content; empty = none. Its first reasoning_size bytes are the reasoning, the rest
  // the answer, so the hot path keeps one string and the split costs nothing.
  std::string text;
  std::size_t reasoning_size = 0;
  // delta.tool_calls (OpenAI; vLLM's and SGLang's tool parsers; llama.cpp with --jinja): the
  // function names and argument fragments of this chunk, in order, and the names of the calls it
  // starts. A call's first fragment names it (with its id); the later ones add to its arguments.
  std::string tool_call_text;
  std::vector<std::string> tool_call_names;
  // The same elements of delta.tool_calls one by one (those with a "function" object), with what
  // places them in the answer: "index" (the call of the answer they add to; nullopt without
  // one) and "id" (sent with a call's first fragment). The stream reader joins them into whole
  // calls for an agent session's history (StreamReader::tool_calls).
  struct ToolCallFragment {
    std::optional<std::int64_t> index;
    std::string id;         // empty when absent
    std::string name;       // function.name; empty when absent
    std::string arguments;  // function.arguments; empty when absent
    bool operator==(const ToolCallFragment&) const = default;
  };
  std::vector<ToolCallFragment> tool_call_fragments;
  // choices[0] is an object: a chunk vLLM's benchmark client stamps (its TTFT starts at the first
  // such chunk, role-only or not, and its ITL has a gap before each; peer_view/ recomputes it).
  bool has_choice = false;
  std::string finish_reason;  // choices[0].finish_reason when non-null
  std::string id;             // the chunk's "id" (the response id servers log), when a string
  std::optional<std::int64_t> prompt_tokens;      // usage.prompt_tokens when usage present
  std::optional<std::int64_t> completion_tokens;  // usage.completion_tokens when usage present
  // usage.completion_tokens_details.reasoning_tokens (OpenAI, vLLM, SGLang): of the completion
  // tokens, those the model spent reasoning.
  std::optional<std::int64_t> reasoning_tokens;
  // How much of the prompt the server's prefix cache served, in the shapes servers say it:
  std::optional<std::int64_t> cached_tokens;     // usage.prompt_tokens_details.cached_tokens
                                                 // (vLLM, SGLang, OpenAI)
  std::optional<std::int64_t> timings_prompt_n;  // llama.cpp timings.prompt_n: tokens prefilled
  std::optional<std::int64_t> timings_cache_n;   // llama.cpp timings.cache_n (newer builds)
  std::string error_message;  // for error / malformed: a short human-readable reason

  /// Back to an empty data chunk, every field cleared (the strings keep their capacity: a
  /// stream reuses one Chunk for all its events). The one list of fields an interpreter resets.
  void reset() {
    kind = Kind::data;
    text.clear();
    reasoning_size = 0;
    tool_call_text.clear();
    tool_call_names.clear();
    tool_call_fragments.clear();
    has_choice = false;
    finish_reason.clear();
    id.clear();
    prompt_tokens.reset();
    completion_tokens.reset();
    reasoning_tokens.reset();
    cached_tokens.reset();
    timings_prompt_n.reset();
    timings_cache_n.reset();
    error_message.clear();
  }

  bool has_text() const { return !text.empty(); }
  /// The chunk carries generated tokens of a tool call (a function name or argument text).
  bool has_tool_call() const { return !tool_call_text.empty(); }
  bool has_reasoning() const { return reasoning_size > 0; }
  bool has_answer() const { return text.size() > reasoning_size; }
  std::string_view reasoning() const { return std::string_view(text).substr(0, reasoning_size); }
  std::string_view answer() const { return std::string_view(text).substr(reasoning_size); }
};

/// Interprets one `data` field value. Never throws.
Chunk interpret_chunk(std::string_view data);

/// The whole body of a non-streamed chat or completions response ("chat.completion",
/// "text_completion") into `chunk`: choices[0].message's reasoning_content (or reasoning), content
/// and tool_calls, or choices[0].text; finish_reason, id and usage read as a streamed chunk's
/// are. An error object is Kind::error, JSON cut short Kind::truncated, anything else that is
/// no completion (no choices) Kind::malformed. Never throws.
void interpret_completion_body(std::string_view body, Chunk& chunk);

/// Extracts a readable message from a non-200 response body: error.message, or message, or
/// detail (FastAPI), or the body itself cut to 200 bytes. Never throws.
std::string error_message_from_body(std::string_view body);

/// Reads the model list of GET /v1/models; returns the first "id", or nullopt.
std::optional<std::string> first_model_id(std::string_view models_body);

}  // namespace bench::protocol
