#pragma once
// Hand-built RunSummary values and a RunContext for the report tests: the report is tested
// independently of summarize_run, so every figure here is chosen, not computed.
#include <vector>

#include "bench/metrics/error_class.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/report/report.hpp"
#include "bench/results/writer.hpp"

namespace report_test {

using bench::metrics::Distribution;
using bench::metrics::ErrorClass;
using bench::metrics::RunSummary;
using bench::results::RunContext;

// Distinct values per statistic so a swapped column or key shows: base + 0.1 .. base + 0.7.
inline Distribution distribution(double base) {
  Distribution d;
  d.count = 10;
  d.mean = base + 0.1;
  d.median = base + 0.2;
  d.std = base + 0.3;
  d.p90 = base + 0.4;
  d.p95 = base + 0.5;
  d.p99 = base + 0.6;
  d.max = base + 0.7;
  d.min = base;
  return d;
}

// A clean run: 200 sent, all completed, token counts from usage, one token per chunk.
inline RunSummary clean_summary() {
  RunSummary s;
  s.sent = 200;
  s.completed = 200;
  s.warmup_requests = 2;
  s.duration_s = 10.5;
  s.total_input_tokens = 62480;
  s.total_output_tokens = 25600;
  s.input_tokens_from_usage = 200;
  s.output_tokens_from_usage = 200;
  s.request_throughput = 19.047619;
  s.input_throughput = 5950.476;
  s.output_throughput = 2438.1;
  s.total_throughput = 8388.576;
  s.achieved_concurrency = 63.9;
  s.ttft_ms = distribution(100);
  s.itl_ms = distribution(200);
  s.icl_ms = distribution(300);
  s.tpot_ms = distribution(400);
  s.e2e_ms = distribution(500);
  s.schedule_lag_ms = distribution(600);
  s.ttft_from_intended_ms = distribution(700);
  s.e2e_from_intended_ms = distribution(800);
  s.total_text_chunks = 25600;
  s.mean_requested_input_len = 256;
  s.mean_prompt_tokens = 312.4;
  s.mean_requested_output_len = 128;
  s.mean_completion_tokens = 128;
  return s;
}

inline RunSummary failing_summary() {
  RunSummary s = clean_summary();
  s.completed = 190;
  s.failed = 10;
  s.errors[ErrorClass::http_5xx] = {7, {"HTTP 500: simulated internal error"}};
  s.errors[ErrorClass::stall] = {3, {}};
  return s;
}

inline RunSummary estimated_summary() {
  RunSummary s = clean_summary();
  s.output_tokens_from_usage = 0;
  s.output_tokens_from_chunks = 200;
  s.input_tokens_from_usage = 0;
  s.input_tokens_unknown = 200;
  s.total_input_tokens = 0;
  s.mean_prompt_tokens = 0;
  return s;
}

inline RunSummary multi_token_chunk_summary() {
  RunSummary s = clean_summary();
  s.total_text_chunks = 6400;
  s.chunks_differ_from_tokens = true;
  s.requests_with_per_chunk_usage = 200;
  return s;
}

inline RunContext context() {
  RunContext c;
  c.base_url = "http://127.0.0.1:40123";
  c.embedded_server = true;
  c.endpoint = "chat";
  c.model = "sim-model";
  c.concurrency = 64;
  c.num_prompts = 200;
  c.input_len = 256;
  c.output_len = 128;
  c.started_at = "2024-01-02T03:04:05Z";
  c.config = {{"concurrency", 64}, {"num_prompts", 200}, {"api_key", "<redacted>"}};
  return c;
}

inline std::vector<RunSummary> every_variant() {
  RunSummary mixed = estimated_summary();
  mixed.output_tokens_from_usage = 150;
  mixed.output_tokens_from_chunks = 50;
  mixed.input_tokens_from_usage = 150;
  mixed.input_tokens_unknown = 50;
  mixed.chunks_differ_from_tokens = true;
  mixed.itl_estimated = true;
  return {clean_summary(), failing_summary(), estimated_summary(), multi_token_chunk_summary(),
          mixed,           RunSummary{}};
}

}  // namespace report_test
