// Latencies of the steady-state window: the requests that started inside it and ended before
// its end, neither the ramp-up's nor the drain's; unknown (never partial) once the raw-value
// budget runs out; the same whichever client thread's accumulator saw a request.
#include "bench/metrics/steady_latency.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/util/clock.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::metrics::RunAccumulator;
using bench::metrics::RunSummary;
using bench::metrics::SampleBudget;
using bench::metrics::SteadyLatencyGap;
using bench::metrics::SummaryOptions;

using bench::kNsPerMs;

RequestRecord request(std::int64_t start_ms, std::int64_t end_ms, std::int64_t ttft_ms) {
  RequestRecord r;
  r.start_ns = r.intended_start_ns = start_ms * kNsPerMs;
  r.end_ns = end_ms * kNsPerMs;
  r.first_token_ns = r.start_ns + ttft_ms * kNsPerMs;
  r.text_chunk_ns = {r.first_token_ns, r.end_ns};
  r.completion_tokens = 2;
  r.prompt_tokens = 10;
  r.finish_reason = "length";
  return r;
}

// A closed loop at concurrency 4: slots starting 100 ms apart (the ramp-up), ten requests of
// 1 s back to back each, then the drain. TTFT says which part a request was in: 500 ms in the
// ramp-up (started before the 4th slot), 5 ms in the drain (ended after the first slot's last
// request), 50 ms in between.
std::vector<RequestRecord> closed_loop_by_phase() {
  std::vector<RequestRecord> records;
  for (int slot = 0; slot < 4; ++slot) {
    for (int round = 0; round < 10; ++round) {
      const std::int64_t start = slot * 100 + round * 1000;
      const std::int64_t end = start + 1000;
      const std::int64_t ttft = start < 300 ? 500 : end > 10'000 ? 5 : 50;
      records.push_back(request(start, end, ttft));
    }
  }
  return records;
}

RunSummary summarized(const std::vector<RequestRecord>& records, std::uint64_t budget,
                      int threads = 1) {
  SummaryOptions options;
  options.target_in_flight = 4;
  options.sample_budget = budget;
  auto shared = std::make_shared<SampleBudget>(budget);
  std::vector<RunAccumulator> accumulators;
  for (int i = 0; i < threads; ++i) accumulators.emplace_back(options, shared);
  for (std::size_t i = 0; i < records.size(); ++i) accumulators[i % threads].add(records[i]);
  for (int i = 1; i < threads; ++i) accumulators[0].merge(std::move(accumulators[i]));
  return accumulators[0].summarize();
}

TEST(SteadyLatency, LeavesOutTheRampUpAndTheDrain) {
  const RunSummary summary = summarized(closed_loop_by_phase(), SampleBudget::kDefaultValues);
  ASSERT_TRUE(summary.steady_state.found);
  ASSERT_TRUE(summary.steady_latencies.has_value());
  EXPECT_EQ(summary.steady_latency_gap, SteadyLatencyGap::none);
  EXPECT_EQ(summary.steady_latencies->requests, 40 - 3 - 3);
  EXPECT_DOUBLE_EQ(summary.steady_latencies->ttft_ms.min, 50);
  EXPECT_DOUBLE_EQ(summary.steady_latencies->ttft_ms.max, 50);
  EXPECT_DOUBLE_EQ(summary.steady_latencies->e2e_ms.p99, 1000);
  EXPECT_DOUBLE_EQ(summary.steady_latencies->tpot_ms.median, 950);
  // The whole run's distribution has both ends in it.
  EXPECT_DOUBLE_EQ(summary.ttft_ms.min, 5);
  EXPECT_DOUBLE_EQ(summary.ttft_ms.max, 500);
}

TEST(SteadyLatency, UnknownWhenTheWindowHoldsUnderHalfTheRequests) {
  // Two slots of 1 s requests and two of 300 ms ones that stop early: in flight is 4 only
  // for the first 300 ms, where just the short requests fit.
  std::vector<RequestRecord> records;
  for (int round = 0; round < 4; ++round) {
    records.push_back(request(round * 1000, round * 1000 + 1000, 50));
    records.push_back(request(round * 1000, round * 1000 + 1000, 50));
  }
  records.push_back(request(0, 300, 50));
  records.push_back(request(0, 300, 50));
  const RunSummary summary = summarized(records, SampleBudget::kDefaultValues);
  ASSERT_TRUE(summary.steady_state.found);
  EXPECT_NEAR(summary.steady_state.end_s, 0.31, 0.011);
  EXPECT_FALSE(summary.steady_latencies.has_value());
  EXPECT_EQ(summary.steady_latency_gap, SteadyLatencyGap::few_inside);
}

TEST(SteadyLatency, UnknownOnceTheRawValueBudgetRunsOut) {
  const RunSummary summary = summarized(closed_loop_by_phase(), 100);
  EXPECT_TRUE(summary.steady_state.found);
  EXPECT_FALSE(summary.steady_latencies.has_value());
  EXPECT_EQ(summary.steady_latency_gap, SteadyLatencyGap::budget_ran_out);
}

// A server that answers every request with an error still fills the window with requests in
// flight, none of which completed: no latencies, for that reason (not a TTFT of 0.00).
TEST(SteadyLatency, UnknownWhenNoRequestInsideCompleted) {
  std::vector<RequestRecord> records = closed_loop_by_phase();
  for (RequestRecord& record : records) {
    record.error = bench::metrics::ErrorClass::http_5xx;
    record.first_token_ns = -1;
    record.text_chunk_ns.clear();
  }
  const RunSummary summary = summarized(records, SampleBudget::kDefaultValues);
  ASSERT_TRUE(summary.steady_state.found);
  EXPECT_FALSE(summary.steady_latencies.has_value());
  EXPECT_EQ(summary.steady_latency_gap, SteadyLatencyGap::none_inside);
}

// Figures restored from a shard's state (bench merge) keep no request's times: the steady
// latencies are unknown because of the merge, whatever the shards held.
TEST(SteadyLatency, UnknownAfterAMergeOfShardStatesForThatReason) {
  SummaryOptions options;
  options.target_in_flight = 4;
  RunAccumulator shard(options);
  for (const RequestRecord& record : closed_loop_by_phase()) shard.add(record);
  ASSERT_TRUE(shard.summarize().steady_latencies.has_value());
  std::optional<RunAccumulator> merged = RunAccumulator::from_state(shard.state(), 0);
  ASSERT_TRUE(merged.has_value());
  const RunSummary summary = merged->summarize();
  ASSERT_TRUE(summary.steady_state.found);
  EXPECT_FALSE(summary.steady_latencies.has_value());
  EXPECT_EQ(summary.steady_latency_gap, SteadyLatencyGap::merged);
}

TEST(SteadyLatency, ClientThreadsMergeToTheSameFigures) {
  const RunSummary one = summarized(closed_loop_by_phase(), SampleBudget::kDefaultValues);
  const RunSummary three = summarized(closed_loop_by_phase(), SampleBudget::kDefaultValues, 3);
  ASSERT_TRUE(three.steady_latencies.has_value());
  EXPECT_EQ(three.steady_latencies->requests, one.steady_latencies->requests);
  EXPECT_DOUBLE_EQ(three.steady_latencies->ttft_ms.p99, one.steady_latencies->ttft_ms.p99);
}

TEST(SteadyLatency, ALogGivesItsBudgetBackWhenItEnds) {
  auto budget = std::make_shared<SampleBudget>(100'000);
  {
    bench::metrics::SteadyLatencyLog log(budget);
    log.add(0, kNsPerMs, 1.0, std::nullopt, 1.0);
    EXPECT_GT(budget->used(), 0u);
  }
  EXPECT_EQ(budget->used(), 0u);
}

}  // namespace
