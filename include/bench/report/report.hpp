#pragma once
// Renders a RunSummary for people (text) and for scripts (JSON). Output tok/s is the headline;
// input and total stand beside it, each labelled; a bare "tok/s" never appears.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/metrics/run_summary.hpp"

namespace bench::report {

inline constexpr int kSchemaVersion = 1;  // "schema_version" of every results file

/// What the run was, for the report's header and the JSON "config" object.
struct RunContext {
  std::string base_url;           // server that was benchmarked
  bool embedded_server = false;   // true when bench started its own simulated server
  std::string endpoint;           // "chat" or "completions"
  std::string model;
  std::int64_t concurrency = 0;   // closed-loop concurrency (max requests in flight)
  std::int64_t num_prompts = 0;   // measured requests asked for
  std::int64_t input_len = 0;     // requested input length (words)
  std::int64_t output_len = 0;    // requested max_tokens
  std::string started_at;         // wall clock, ISO 8601 UTC, label only
  nlohmann::json config = nlohmann::json::object();  // every option, API key redacted
};

/// The human report (for stdout). Multi-line, ends with a newline.
std::string render_text(const metrics::RunSummary& summary, const RunContext& context);

/// The results object. Flat keys read by scripts written for SGLang's bench_serving and vLLM's
/// benchmark (duration, completed, failed, total_input_tokens, total_output_tokens,
/// request_throughput, input_throughput, output_throughput, total_throughput, concurrency,
/// {mean,median,std,p90,p95,p99,max}_{ttft,itl,icl,tpot,e2e_latency}_ms), plus schema_version,
/// bench_version, config, token_count_source, errors, and definitions (one line per metric).
nlohmann::json to_json(const metrics::RunSummary& summary, const RunContext& context);

/// One JSONL line (no trailing newline) for --save-requests: the request's start offset, TTFT,
/// every chunk arrival offset (ms from its start), token counts and their source, status, error.
std::string request_to_jsonl(const metrics::RequestRecord& record);

/// The "definitions" object: metric name -> one line saying what it measures.
nlohmann::json metric_definitions();

}  // namespace bench::report
