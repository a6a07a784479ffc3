// What the simulator's /metrics histograms observe of one ended request, from the times of its
// truth-log record: the server-side view of the latencies bench measures on the client's side.
#include <cstdint>
#include <vector>

#include "bench/sim/metrics_exposition.hpp"
#include "bench/util/clock.hpp"

namespace bench::sim {
namespace {

double seconds_between(std::int64_t from_ns, std::int64_t to_ns) {
  return ns_to_s(to_ns - from_ns);
}

// bench's ITL rule (src/metrics/run_summary.cpp, add_chunk_gaps), as SGLang observes its own: a
// chunk of k tokens ends a gap that counts k times as gap / k; a chunk of none counts its gap
// once. The first chunk's wait is the TTFT. A chunk never handed to the socket (its time still 0)
// ends no gap.
void observe_token_gaps(SimHistogram& itl_seconds, const TraceRecord& record) {
  const std::vector<std::int64_t>& chunk_ns = record.chunk_ns;
  for (std::size_t i = 1; i < chunk_ns.size(); ++i) {
    if (chunk_ns[i - 1] <= 0 || chunk_ns[i] <= 0) continue;
    const double gap_s = seconds_between(chunk_ns[i - 1], chunk_ns[i]);
    const std::int64_t tokens = i < record.chunk_tokens.size() ? record.chunk_tokens[i] : 1;
    if (tokens <= 0) {
      itl_seconds.observe(gap_s);
      continue;
    }
    for (std::int64_t token = 0; token < tokens; ++token) itl_seconds.observe(gap_s / tokens);
  }
}

// vLLM's per-request TPOT (vllm/v1/metrics/stats.py): first to last token over the tokens after
// the first; nothing for a request of one token.
void observe_tpot(SimHistogram& tpot_seconds, const TraceRecord& record) {
  if (record.completion_tokens < 2 || record.chunk_ns.empty()) return;
  if (record.chunk_ns.front() <= 0 || record.chunk_ns.back() <= 0) return;
  tpot_seconds.observe(seconds_between(record.chunk_ns.front(), record.chunk_ns.back()) /
                       static_cast<double>(record.completion_tokens - 1));
}

// Arrival to the first step that computed its prompt, where the model schedules (batching
// profiles); the fixed profile starts every request as soon as it sees it, after its jitter.
double queue_seconds(const TraceRecord& record) {
  if (record.prefill_start_ns >= 0) {
    return seconds_between(record.arrival_ns, record.prefill_start_ns);
  }
  return ns_to_s(record.jitter_ns);
}

}  // namespace

void observe_latency(SimCounts& counts, const TraceRecord& record) {
  if (!record.chunk_ns.empty() && record.chunk_ns.front() > 0) {
    counts.ttft_seconds.observe(seconds_between(record.arrival_ns, record.chunk_ns.front()));
  }
  observe_token_gaps(counts.itl_seconds, record);
  if (record.outcome != "ok") return;
  counts.e2e_seconds.observe(seconds_between(record.arrival_ns, record.end_ns));
  observe_tpot(counts.tpot_seconds, record);
  counts.queue_time_seconds.observe(queue_seconds(record));
}

}  // namespace bench::sim
