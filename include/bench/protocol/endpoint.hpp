#pragma once
// The endpoints bench can call, one row of a table each: its name and path, how a request
// carries its input, the builders of its request body, the interpreters of its stream's events
// and of its whole (non-streamed) body, where its usage says each count, and the figures it can
// produce. Everything that differs
// between endpoints is read from the row, so adding an endpoint is adding its unit (a body
// builder and an event interpreter) and one row; nothing outside protocol compares endpoints.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bench/metrics/figures.hpp"

namespace bench::protocol {

enum class Endpoint { completions, chat, responses, messages };

struct RequestOptions;
struct Chunk;

/// How a request carries the user's input.
enum class InputShape {
  prompt,    // one text; a conversation goes as its transcript, and the server adds its special
             // tokens (BOS) to it
  messages,  // {"role", "content"} messages, which the server renders by its chat template
};

/// Where the stream says each count: the documented JSON path of each in its usage object (in
/// the event that carries it; a whole body is that object, usage at its top). The interpreters
/// read them; the table keeps them for docs and tests.
struct UsageSchema {
  std::string_view input_tokens;
  std::string_view output_tokens;
  std::string_view cached_tokens;
  std::string_view reasoning_tokens;
};

struct EndpointSpec {
  Endpoint id;
  std::string_view name;  // --endpoint's value and the results' "endpoint"
  std::string_view path;  // after the base URL's origin
  std::string_view help;  // for --endpoint's help: what it is
  InputShape input;
  bool token_ids;        // takes a prompt given as token ids
  bool per_chunk_usage;  // can be asked for usage on every chunk (vLLM's continuous_usage_stats)
  // The body of one request with its input as a prompt text, and as messages (a JSON array;
  // null when the input shape is prompt).
  std::string (*prompt_body)(const RequestOptions& options, std::string_view prompt);
  std::string (*messages_body)(const RequestOptions& options, const nlohmann::json& messages);
  // Its stream's events name their type in the SSE `event:` field (every type is read), rather
  // than all being the default "message" type (other types are not the endpoint's).
  bool named_events;
  // What one event's data says, into a Chunk reused across the stream. Never throws.
  void (*interpret)(std::string_view data, Chunk& chunk);
  // What a whole non-streamed response body ("stream": false) says, into one Chunk: its whole
  // answer, usage, finish reason and id, read by the same field readers as the stream's events.
  // Never throws.
  void (*interpret_whole)(std::string_view body, Chunk& chunk);
  UsageSchema usage;
  metrics::FigureSet figures;  // what a run against it can measure
  // How the API key goes: the header's name and what precedes the key (OpenAI's
  // "Authorization: Bearer KEY"; Anthropic's "x-api-key: KEY"), and a header every request
  // carries (Anthropic's "anthropic-version"; empty: none).
  std::string_view key_header = "Authorization";
  std::string_view key_prefix = "Bearer ";
  std::string_view fixed_header = {};
};

/// Every row, in --endpoint's order.
std::span<const EndpointSpec> endpoints();

const EndpointSpec& endpoint_spec(Endpoint endpoint);

/// The endpoint of that name, or nullopt.
std::optional<Endpoint> find_endpoint(std::string_view name);

std::string_view endpoint_name(Endpoint endpoint);  // "completions", "chat", "responses", ...
std::string_view endpoint_path(Endpoint endpoint);  // "/v1/completions", ...

/// The headers every request to `endpoint` carries for its API: the key as the endpoint takes
/// it (none when `api_key` is empty) and its fixed header, if it has one.
std::vector<std::string> endpoint_headers(Endpoint endpoint, std::string_view api_key);

/// The endpoint takes messages (and renders them by a chat template) rather than a prompt.
bool takes_messages(Endpoint endpoint);

/// The endpoint can produce `figure`.
bool produces(Endpoint endpoint, metrics::Figure figure);

/// The endpoints that can produce `figure`, for messages: "chat, responses or messages".
std::string endpoints_producing(metrics::Figure figure);

}  // namespace bench::protocol
