#pragma once
// One ended request as the live figures count it: what the publisher needs of a RequestRecord,
// taken on the event loop when the request ends (a few numbers and its ITL values), so the
// publisher thread never reads a record the loop may reuse.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "bench/metrics/request_record.hpp"

namespace bench::live {

enum class Outcome { completed, failed, cancelled };

struct Sample {
  bool warmup = false;  // warm-up requests count among the requests, in no other figure
  Outcome outcome = Outcome::completed;
  std::int64_t ended_ns = 0;  // steady clock (util/clock.hpp now_ns) when it ended
  // Tokens of a completed request, counted as the report counts them (metrics/run_summary.cpp):
  // -1 when unknown, never 0 for "not said".
  std::int64_t input_tokens = -1;
  std::int64_t output_tokens = -1;
  std::int64_t cached_input_tokens = -1;    // -1: the split of the prompt is unknown
  std::int64_t computed_input_tokens = -1;  // -1: likewise
  std::int64_t reasoning_tokens = 0;        // of output_tokens
  std::int64_t tool_call_tokens = 0;        // of output_tokens
  // Latencies of a completed request (metrics/request_latency.hpp), ms.
  double e2e_ms = 0;
  std::optional<double> ttft_ms;
  std::optional<double> tpot_ms;
  std::vector<std::pair<double, std::uint64_t>> itl_ms;  // (value, times): per-token ITL values
};

/// The sample of `record`, which ended at steady-clock `ended_ns`.
Sample sample_of(const metrics::RequestRecord& record, std::int64_t ended_ns);

}  // namespace bench::live
