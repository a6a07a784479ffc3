#pragma once
// Settings of the embedded OpenAI-compatible server (`bench serve-sim`, and bench's default
// target when no --base-url is given). Every field says its unit.
#include <cstdint>
#include <string>

namespace bench::sim {

struct SimOptions {
  std::string host = "127.0.0.1";  // listen address; loopback by default
  std::uint16_t port = 0;          // 0 = pick a free port (read it back from SimServer::port())
  std::string model = "bench-sim";  // the single id served by GET /v1/models

  double ttft_ms = 50.0;          // request arrival -> first text chunk, milliseconds
  double tpot_ms = 10.0;          // time per output token after the first, milliseconds
  std::int32_t tokens_per_chunk = 1;   // tokens carried by each streamed chunk (>= 1)
  bool send_usage = true;         // send the final `usage` chunk when include_usage is asked
  std::int64_t default_max_tokens = 128;  // output length when the request gives no max_tokens
  // Without ignore_eos a request stops early with this probability per token (0 = never: the
  // output is exactly max_tokens long, as llama.cpp does with random weights).
  double eos_probability = 0.0;

  double fail_500_fraction = 0.0;  // fraction of requests answered with HTTP 500 (a JSON body)
  std::uint64_t seed = 42;         // drives every random choice (faults, early EOS)

  std::string trace_path;  // when set, a JSONL truth log: one line per request (server times)
};

/// One line saying how the simulator behaves ("ttft 50 ms, tpot 10 ms, 1 token(s) per chunk"),
/// for the banner of `serve-sim` and of a run against the embedded server.
std::string describe(const SimOptions& options);

}  // namespace bench::sim
