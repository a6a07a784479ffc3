// What the simulator's /metrics histograms observe of one ended request, from its truth-log
// record: its TTFT and token gaps whatever ended it (the gaps split per token, as bench's ITL),
// and its E2E, TPOT and queue time only when its whole answer went out.
#include <gtest/gtest.h>

#include "bench/sim/metrics_exposition.hpp"
#include "bench/sim/trace_log.hpp"

namespace {

using bench::sim::observe_latency;
using bench::sim::SimCounts;
using bench::sim::TraceRecord;

constexpr std::int64_t kSecond = 1'000'000'000;

// Arrives at 1 s; 5 tokens in three chunks: 1 at 1.1 s, 3 at 1.13 s, 1 at 1.15 s; ends at 1.16 s.
TraceRecord streamed() {
  TraceRecord record;
  record.arrival_ns = kSecond;
  record.chunk_ns = {kSecond + 100'000'000, kSecond + 130'000'000, kSecond + 150'000'000};
  record.chunk_tokens = {1, 3, 1};
  record.completion_tokens = 5;
  record.end_ns = kSecond + 160'000'000;
  return record;
}

TEST(SimLatencyObservations, AChunksGapCountsOncePerToken) {
  SimCounts counts;
  observe_latency(counts, streamed());
  // 0.03 s over 3 tokens, then 0.02 s over 1: four values, 0.01 s three times.
  EXPECT_EQ(counts.itl_seconds.count(), 4);
  EXPECT_NEAR(counts.itl_seconds.sum(), 0.05, 1e-12);
  EXPECT_EQ(counts.itl_seconds.cumulative(0), 3);  // the 0.01 s bucket
  EXPECT_EQ(counts.ttft_seconds.count(), 1);
  EXPECT_NEAR(counts.ttft_seconds.sum(), 0.1, 1e-12);
}

TEST(SimLatencyObservations, TpotIsFirstToLastTokenOverTheTokensAfterTheFirst) {
  SimCounts counts;
  observe_latency(counts, streamed());
  EXPECT_EQ(counts.tpot_seconds.count(), 1);
  EXPECT_NEAR(counts.tpot_seconds.sum(), 0.05 / 4, 1e-12);
  EXPECT_EQ(counts.e2e_seconds.count(), 1);
  EXPECT_NEAR(counts.e2e_seconds.sum(), 0.16, 1e-12);
}

TEST(SimLatencyObservations, QueueTimeRunsToThePromptsFirstStepOrTheJittersEnd) {
  SimCounts counts;
  TraceRecord scheduled = streamed();
  scheduled.prefill_start_ns = kSecond + 40'000'000;  // a batching profile's scheduler
  observe_latency(counts, scheduled);
  EXPECT_NEAR(counts.queue_time_seconds.sum(), 0.04, 1e-12);
  TraceRecord jittered = streamed();
  jittered.jitter_ns = 2'000'000;  // the fixed profile starts it once the jitter is over
  observe_latency(counts, jittered);
  EXPECT_EQ(counts.queue_time_seconds.count(), 2);
  EXPECT_NEAR(counts.queue_time_seconds.sum(), 0.042, 1e-12);
}

TEST(SimLatencyObservations, AnUnfinishedAnswerHasNoE2eTpotOrQueueTime) {
  SimCounts counts;
  TraceRecord closed = streamed();
  closed.outcome = "client_closed";
  closed.chunk_ns.back() = 0;  // never handed to the socket: it ends no gap
  observe_latency(counts, closed);
  EXPECT_EQ(counts.ttft_seconds.count(), 1);
  EXPECT_EQ(counts.itl_seconds.count(), 3);
  EXPECT_EQ(counts.e2e_seconds.count(), 0);
  EXPECT_EQ(counts.tpot_seconds.count(), 0);
  EXPECT_EQ(counts.queue_time_seconds.count(), 0);
}

TEST(SimLatencyObservations, OneTokenHasNoTpot) {
  SimCounts counts;
  TraceRecord single;
  single.arrival_ns = kSecond;
  single.chunk_ns = {kSecond + 10'000'000};
  single.chunk_tokens = {1};
  single.completion_tokens = 1;
  single.end_ns = kSecond + 11'000'000;
  observe_latency(counts, single);
  EXPECT_EQ(counts.tpot_seconds.count(), 0);
  EXPECT_EQ(counts.itl_seconds.count(), 0);
  EXPECT_EQ(counts.e2e_seconds.count(), 1);
}

}  // namespace
