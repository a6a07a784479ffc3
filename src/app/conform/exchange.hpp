#pragma once
// One request of the battery, sent through the proxy and read by bench's own path: the engine's
// fetch, then protocol::StreamReader (the SSE parser and the chunk interpreter a run uses).
// Private to src/app/conform.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/engine/fetch.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "conform_check.hpp"

namespace bench::app::conform {

/// What came back, read as a run reads it.
struct Answer {
  engine::FetchResult fetched;
  metrics::RequestRecord record;
  std::vector<protocol::StreamedToolCall> tool_calls;
  std::string text;       // the answer's content
  std::string reasoning;  // the reasoning deltas' text
};

/// The request options of a check: the server's model, a short answer at temperature 0.
protocol::RequestOptions request_options(const ConformServer& server, protocol::Endpoint endpoint,
                                         std::int64_t max_tokens);

/// A streamed body of `options` for `prompt` (chat: one user message).
std::string streamed_body(const protocol::RequestOptions& options, std::string_view prompt);

/// POSTs `body` to `endpoint`'s path and reads the answer as a run does; `max_body_bytes`
/// caps what is read (the transfer is cut there).
Answer send(const ConformServer& server, protocol::Endpoint endpoint, const std::string& body,
            std::size_t max_body_bytes = 4 << 20);

/// GETs (or POSTs, with a body) `path` on the server.
engine::FetchResult fetch_route(const ConformServer& server, std::string_view path,
                                const std::string& body = "");

/// The error message of a refused request, redacted, or "" when the body carries none.
std::string refusal_message(const ConformServer& server, const Answer& answer);

/// "HTTP 500: message", "no response: message" or "the stream failed (class): message": why an
/// answer is not the clean stream a check wanted, in one line.
std::string failure_text(const ConformServer& server, const Answer& answer);

}  // namespace bench::app::conform
