#pragma once
// The latencies of one completed request, by the rules of docs/metrics.md: the one place that
// says what a request's TTFT, TPOT, E2E and inter-token gaps are, so the report's distributions
// (RunAccumulator) and the live feed's (live/tally.hpp) cannot disagree on a definition.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/metrics/request_record.hpp"
#include "bench/util/clock.hpp"

namespace bench::metrics {

struct RequestLatency {
  double e2e_ms = 0;              // start -> end of stream
  std::optional<double> ttft_ms;  // start -> first generated token; none without one
  std::optional<double> tpot_ms;  // (E2E - TTFT) / (completion_tokens - 1); needs 2+ tokens
  std::optional<double> ttfa_ms;  // start -> first answer token (not reasoning)
  std::optional<double> ttfb_ms;  // start -> the response's headers
  std::optional<double> ttst_ms;  // first token-carrying chunk -> second (AIPerf's TTST)
};

/// TTFT, TPOT and E2E of a completed request (docs/metrics.md, Latency).
RequestLatency request_latency(const RequestRecord& record);

/// A completion count that counted tokens (the server's usage, or the run's tokenizer on the
/// streamed text) rather than estimated them from the chunks.
bool counted_tokens(const RequestRecord& record);

/// Calls chunk_gap(gap_ms) for each gap between consecutive text chunks, and token_gap(value_ms,
/// times) for the per-token ITL values of that gap (docs/metrics.md, Latency, "ITL"): a chunk
/// carrying k tokens contributes k values of gap / k, where k is exact from per-chunk usage,
/// else estimated as completion_tokens / chunks. Returns true when the estimate was used. The
/// first chunk has no preceding gap: its wait is the TTFT.
template <typename ChunkGap, typename TokenGap>
bool visit_token_gaps(const RequestRecord& record, ChunkGap&& chunk_gap, TokenGap&& token_gap) {
  const std::vector<std::int64_t>& arrivals = record.text_chunk_ns;
  const std::size_t chunks = arrivals.size();
  if (chunks < 2) return false;

  const bool exact = record.text_chunk_tokens.size() == chunks;
  const bool estimate = !exact && counted_tokens(record) &&
                        record.completion_tokens > static_cast<std::int64_t>(chunks);
  const double tokens_per_chunk =
      estimate ? static_cast<double>(record.completion_tokens) / static_cast<double>(chunks) : 1;
  const std::int64_t estimated_values = std::max<std::int64_t>(1, std::llround(tokens_per_chunk));

  for (std::size_t i = 1; i < chunks; ++i) {
    const double gap_ms = ns_to_ms(arrivals[i] - arrivals[i - 1]);
    chunk_gap(gap_ms);
    if (exact) {
      const std::int32_t tokens = record.text_chunk_tokens[i];
      // A chunk reported with no tokens still ended a wait: keep its gap as one value.
      if (tokens <= 0) {
        token_gap(gap_ms, std::uint64_t{1});
      } else {
        token_gap(gap_ms / tokens, static_cast<std::uint64_t>(tokens));
      }
    } else if (estimate) {
      token_gap(gap_ms / tokens_per_chunk, static_cast<std::uint64_t>(estimated_values));
    } else {
      token_gap(gap_ms, std::uint64_t{1});
    }
  }
  return estimate;
}

}  // namespace bench::metrics
