// The results object and the per-request JSONL line. Flat key names follow SGLang's
// bench_serving and vLLM's benchmark result files, so scripts written for them read bench's
// figures unchanged; everything bench adds (sources, errors, definitions) is nested beside them.
#include <cmath>
#include <string>
#include <string_view>

#include "bench/metrics/error_class.hpp"
#include "bench/report/report.hpp"

namespace bench::report {
namespace {

using metrics::Distribution;
using metrics::RunSummary;
using nlohmann::json;

// Plain doubles only: JSON has no NaN, and nlohmann would write null for it.
double finite(double value) { return std::isfinite(value) ? value : 0.0; }

// Server-supplied text (error bodies, finish_reason) may hold invalid UTF-8, on which
// json::dump throws; invalid bytes become U+FFFD so the caller's dump cannot fail.
std::string valid_utf8(std::string_view text) {
  const std::string dumped =
      json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
  return json::parse(dumped).get<std::string>();
}

// {mean,median,std,p90,p95,p99,max}_<name>_ms, the SGLang/vLLM key layout.
void put_distribution(json& out, std::string_view name, const Distribution& d) {
  const std::pair<std::string_view, double> stats[] = {
      {"mean", d.mean}, {"median", d.median}, {"std", d.std}, {"p90", d.p90},
      {"p95", d.p95},   {"p99", d.p99},       {"max", d.max},
  };
  for (const auto& [stat, value] : stats) {
    out[std::string(stat) + "_" + std::string(name) + "_ms"] = finite(value);
  }
}

// "usage" when every completed request's count came from usage, the other source when every
// one came from it, "mixed" when both occur, "none" when there were no completed requests.
std::string_view source_label(std::int64_t from_usage, std::int64_t other,
                              std::string_view other_label) {
  if (other == 0) return from_usage > 0 ? "usage" : "none";
  return from_usage == 0 ? other_label : "mixed";
}

json token_count_source(const RunSummary& s) {
  return {
      {"output", source_label(s.output_tokens_from_usage, s.output_tokens_from_chunks,
                              "chunks_estimate")},
      {"input", source_label(s.input_tokens_from_usage, s.input_tokens_unknown, "unknown")},
      {"output_from_usage", s.output_tokens_from_usage},
      {"output_from_chunks", s.output_tokens_from_chunks},
      {"input_from_usage", s.input_tokens_from_usage},
      {"input_unknown", s.input_tokens_unknown},
  };
}

json errors_object(const RunSummary& s) {
  json errors = json::object();
  for (const auto& [error, summary] : s.errors) {
    if (summary.count == 0) continue;
    json samples = json::array();
    for (const std::string& sample : summary.samples) samples.push_back(valid_utf8(sample));
    errors[std::string(metrics::error_class_name(error))] = {{"count", summary.count},
                                                             {"samples", samples}};
  }
  return errors;
}

// Steady-clock nanoseconds to milliseconds, rounded to the microsecond (3 decimals).
double ns_to_ms(std::int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }

}  // namespace

json to_json(const RunSummary& s, const RunContext& c) {
  json out = json::object();
  out["schema_version"] = kSchemaVersion;
  out["bench_version"] = BENCH_VERSION;
  out["started_at"] = c.started_at;
  out["base_url"] = c.base_url;
  out["embedded_server"] = c.embedded_server;
  out["endpoint"] = c.endpoint;
  out["model"] = c.model;

  out["duration"] = finite(s.duration_s);
  out["sent"] = s.sent;
  out["completed"] = s.completed;
  out["failed"] = s.failed;
  out["cancelled"] = s.cancelled;
  out["warmup_requests"] = s.warmup_requests;

  out["total_input_tokens"] = s.total_input_tokens;
  out["total_output_tokens"] = s.total_output_tokens;
  out["request_throughput"] = finite(s.request_throughput);
  out["input_throughput"] = finite(s.input_throughput);
  out["output_throughput"] = finite(s.output_throughput);
  out["total_throughput"] = finite(s.total_throughput);
  out["concurrency"] = finite(s.achieved_concurrency);  // SGLang's key for the Little's-law value
  out["max_concurrency"] = c.concurrency;

  put_distribution(out, "ttft", s.ttft_ms);
  put_distribution(out, "itl", s.itl_ms);
  put_distribution(out, "icl", s.icl_ms);
  put_distribution(out, "tpot", s.tpot_ms);
  put_distribution(out, "e2e_latency", s.e2e_ms);
  out["connections_opened"] = s.connections_opened;
  out["mean_connect_ms"] = finite(s.connect_ms.mean);
  out["p99_connect_ms"] = finite(s.connect_ms.p99);
  out["max_connect_ms"] = finite(s.connect_ms.max);
  out["mean_schedule_lag_ms"] = finite(s.schedule_lag_ms.mean);
  out["p99_schedule_lag_ms"] = finite(s.schedule_lag_ms.p99);
  out["max_schedule_lag_ms"] = finite(s.schedule_lag_ms.max);
  out["median_ttft_from_intended_ms"] = finite(s.ttft_from_intended_ms.median);
  out["p99_ttft_from_intended_ms"] = finite(s.ttft_from_intended_ms.p99);
  out["median_e2e_latency_from_intended_ms"] = finite(s.e2e_from_intended_ms.median);
  out["p99_e2e_latency_from_intended_ms"] = finite(s.e2e_from_intended_ms.p99);

  out["total_text_chunks"] = s.total_text_chunks;
  out["chunks_differ_from_tokens"] = s.chunks_differ_from_tokens;
  out["itl_estimated"] = s.itl_estimated;
  out["requests_with_per_chunk_usage"] = s.requests_with_per_chunk_usage;
  out["mean_requested_input_len"] = finite(s.mean_requested_input_len);
  out["mean_prompt_tokens"] = finite(s.mean_prompt_tokens);
  out["mean_requested_output_len"] = finite(s.mean_requested_output_len);
  out["mean_completion_tokens"] = finite(s.mean_completion_tokens);

  out["token_count_source"] = token_count_source(s);
  out["errors"] = errors_object(s);
  out["config"] = c.config;
  out["definitions"] = metric_definitions();
  return out;
}

// Written with ordered_json so each line reads in the order a request happens.
std::string request_to_jsonl(const metrics::RequestRecord& r) {
  using line_json = nlohmann::ordered_json;
  line_json chunk_arrival_ms = line_json::array();
  for (std::int64_t t : r.text_chunk_ns) chunk_arrival_ms.push_back(ns_to_ms(t - r.start_ns));
  line_json chunk_tokens = nullptr;
  if (!r.text_chunk_tokens.empty()) chunk_tokens = r.text_chunk_tokens;

  auto known = [](std::int64_t count) -> line_json {
    return count < 0 ? line_json(nullptr) : line_json(count);
  };
  auto text_or_null = [](const std::string& text) -> line_json {
    return text.empty() ? line_json(nullptr) : line_json(valid_utf8(text));
  };

  const line_json line = {
      {"index", r.index},
      {"response_id", text_or_null(r.response_id)},
      {"warmup", r.warmup},
      {"intended_start_ms", ns_to_ms(r.intended_start_ns)},
      {"start_ms", ns_to_ms(r.start_ns)},
      {"ttft_ms", r.first_token_ns < 0 ? line_json(nullptr)
                                       : line_json(ns_to_ms(r.first_token_ns - r.start_ns))},
      {"e2e_ms", ns_to_ms(r.end_ns - r.start_ns)},
      {"new_connection", r.new_connection},
      {"connect_ms", r.connect_ns < 0 ? line_json(nullptr) : line_json(ns_to_ms(r.connect_ns))},
      {"chunk_arrival_ms", chunk_arrival_ms},
      {"chunk_tokens", chunk_tokens},
      {"prompt_tokens", known(r.prompt_tokens)},
      {"completion_tokens", known(r.completion_tokens)},
      {"prompt_token_source", metrics::token_source_name(r.prompt_token_source)},
      {"completion_token_source", metrics::token_source_name(r.completion_token_source)},
      {"requested_input_len", r.requested_input_len},
      {"requested_output_len", r.requested_output_len},
      {"finish_reason", text_or_null(r.finish_reason)},
      {"saw_done", r.saw_done},
      {"text_bytes", r.text_bytes},
      {"http_status", r.http_status == 0 ? line_json(nullptr) : line_json(r.http_status)},
      {"status", r.ok() ? std::string_view("ok") : metrics::error_class_name(r.error)},
      {"error", text_or_null(r.error_message)},
  };
  return line.dump();
}

}  // namespace bench::report
