#pragma once
// The per-request log (--save-requests) read back: one LoggedRequest per line, with the fields
// that recomputing a run's figures under another tool's rules needs (peer_view/). The writer is
// request_line.cpp; docs/results-format.md lists every key.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bench/results/shape.hpp"

namespace bench::results {

struct LoggedRequest {
  bool warmup = false;
  bool streamed = true;
  bool ok = false;  // "status": "ok"
  double start_ms = 0;
  double e2e_ms = 0;
  std::optional<double> ttft_ms;
  std::vector<double> chunk_arrival_ms;  // each chunk carrying generated tokens, since start
  // The chunks with a choice, text or not; nullopt in a log written before they were logged.
  std::optional<double> first_choice_ms, last_choice_ms;
  std::optional<std::int64_t> choice_chunks;
  std::optional<std::int64_t> prompt_tokens, completion_tokens;
  std::string completion_token_source;               // "usage", "chunks_estimate", "none"
  std::optional<std::int64_t> client_prompt_tokens;  // the client's tokenizer's count
  std::optional<std::int64_t> requested_output_len;
  std::int64_t tool_call_chunks = 0;
  bool in_sweep = false;    // the line names a sweep point
  std::string response_id;  // the id the server gave its answer; empty when it gave none
};

/// Every line of the log at `path`, in order; a FormatError names the line that is not a
/// request line, or the file that cannot be read.
std::variant<std::vector<LoggedRequest>, FormatError> read_request_log(const std::string& path);

/// One line, parsed; a FormatError when it is not a request line.
std::variant<LoggedRequest, FormatError> parse_request_line(const std::string& line);

}  // namespace bench::results
