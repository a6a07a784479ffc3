#pragma once
// Every figure a run reports, computed from its RequestRecords by the definitions in
// docs/metrics.md (mission.md's contract). Warm-up requests are excluded from all of it.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "bench/metrics/percentile.hpp"
#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

struct ErrorSummary {
  std::int64_t count = 0;
  std::vector<std::string> samples;  // up to kMaxErrorSamples distinct messages
};
inline constexpr std::size_t kMaxErrorSamples = 3;

struct RunSummary {
  // Counts over the measured phase. sent == completed + failed + cancelled.
  std::int64_t sent = 0;
  std::int64_t completed = 0;  // ended without error
  std::int64_t failed = 0;     // ended in an error class other than cancelled
  std::int64_t cancelled = 0;  // stopped by bench itself
  std::int64_t warmup_requests = 0;  // excluded from everything below
  std::int64_t connections_opened = 0;  // measured requests that opened a new connection

  // first measured request sent -> last measured request finished, seconds.
  double duration_s = 0;

  // Sums over successful requests. Sources: how many successful requests took their count
  // from usage vs from the chunk count (an estimate).
  std::int64_t total_input_tokens = 0;
  std::int64_t total_output_tokens = 0;
  std::int64_t input_tokens_from_usage = 0;   // requests whose prompt_tokens came from usage
  std::int64_t output_tokens_from_usage = 0;  // requests whose completion_tokens came from usage
  std::int64_t output_tokens_from_chunks = 0; // requests whose completion_tokens are estimates
  std::int64_t input_tokens_unknown = 0;      // successful requests with no prompt_tokens at all

  double request_throughput = 0;  // successful requests / duration, req/s
  double input_throughput = 0;    // total_input_tokens / duration, input tok/s
  double output_throughput = 0;   // total_output_tokens / duration, output tok/s
  double total_throughput = 0;    // input + output, tok/s
  double achieved_concurrency = 0;  // sum(E2E of measured requests) / duration (Little's law)

  // Latency distributions in milliseconds, over successful requests.
  Distribution ttft_ms;   // request start -> first text-carrying chunk
  Distribution itl_ms;    // gaps between tokens (chunk gaps split over the chunk's tokens)
  Distribution icl_ms;    // gaps between successive text-carrying chunks
  Distribution tpot_ms;   // (E2E - TTFT) / (completion_tokens - 1), requests with >= 2 tokens
  Distribution e2e_ms;    // request start -> end of stream
  Distribution schedule_lag_ms;   // actual send - intended send, all measured requests
  Distribution connect_ms;        // time to connect, over measured requests that opened one
  Distribution ttft_from_intended_ms;  // TTFT measured from the intended send time
  Distribution e2e_from_intended_ms;   // E2E measured from the intended send time

  // Chunks vs tokens. When they differ the ITL is split per token, exactly where per-chunk
  // usage is known, otherwise by the estimate completion_tokens / chunks (itl_estimated).
  std::int64_t total_text_chunks = 0;  // text-carrying chunks of successful requests
  bool chunks_differ_from_tokens = false;
  bool itl_estimated = false;          // some ITL values came from the per-request estimate
  std::int64_t requests_with_per_chunk_usage = 0;

  // Input length asked for vs what the server counted (mean over successful requests).
  double mean_requested_input_len = 0;
  double mean_prompt_tokens = 0;  // 0 when no prompt_tokens were reported
  double mean_requested_output_len = 0;
  double mean_completion_tokens = 0;

  std::map<ErrorClass, ErrorSummary> errors;  // failed and cancelled requests by class
};

RunSummary summarize_run(std::span<const RequestRecord> records);

}  // namespace bench::metrics
