#pragma once
// Everything a user can ask of bench, as plain data. CLI11 binds to these structs in
// parse_cli(); the app module does the work. Every field says its unit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_options.hpp"

namespace bench::cli {

enum class OutputFormat { text, json };

/// The benchmark run (`bench [flags]`).
struct RunOptions {
  std::string base_url;        // server root, e.g. http://127.0.0.1:8000; empty = embedded sim
  std::string endpoint = "chat";  // "chat" (/v1/chat/completions) or "completions"
  std::string model;           // empty = first id from GET /v1/models
  std::string api_key;         // sent as "Authorization: Bearer ..."; never printed
  std::int64_t concurrency = 64;   // requests in flight at once (closed loop)
  std::int64_t num_prompts = 1000;  // measured requests
  std::int64_t input_len = 1024;    // prompt length, words (a stand-in for tokens)
  std::int64_t output_len = 128;    // max_tokens per request
  bool ignore_eos = false;          // send ignore_eos: true
  std::optional<double> temperature;  // sampling temperature; unset = server default
  std::string extra_body;           // JSON object merged into every request body
  std::vector<std::string> headers;  // extra "Name: value" headers
  std::uint64_t seed = 42;           // prompt generation seed
  std::int64_t warmup_requests = 0;  // requests sent (at the same concurrency) before measuring
  double request_timeout_s = 600;    // whole-request cap, seconds
  double connect_timeout_s = 10;     // TCP/TLS connect cap, seconds
  double ttft_timeout_s = 0;         // send -> first generated text cap, seconds; 0 = none
  double stall_timeout_s = 60;       // longest silence mid-stream, seconds; 0 = none
  std::string per_chunk_usage = "auto";  // ask for vLLM's continuous_usage_stats: auto|on|off
  OutputFormat output_format = OutputFormat::text;  // what stdout holds
  std::string output_file;     // also write the JSON results here (atomically)
  std::string save_requests;   // JSONL, one record per request
  bool insecure = false;       // skip TLS verification
  std::string cacert;          // CA bundle path
  double grace_s = 5;          // after Ctrl-C, in-flight requests get this long to finish
  bool quiet = false;          // no progress or notes on stderr
  sim::SimOptions sim;         // the embedded server's settings (when base_url is empty)
};

enum class Command { run, serve_sim };

struct ParseResult {
  Command command = Command::run;
  RunOptions run;
  sim::SimOptions serve_sim;
  // When set, the process should exit now with this code after printing `message`
  // (to stdout for --help/--version, to stderr for errors).
  std::optional<int> exit_code;
  std::string message;
};

/// Parses argv (and OPENAI_BASE_URL / OPENAI_API_KEY from the environment). Never exits the
/// process and never throws for bad input: errors come back as exit_code + message naming the
/// flag and the value.
ParseResult parse_cli(int argc, const char* const* argv);

/// The options as a JSON object for results files: the API key redacted.
nlohmann::json options_to_json(const RunOptions& options);

}  // namespace bench::cli
