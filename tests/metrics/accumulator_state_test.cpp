// Shards' accumulators saved as plain data and merged (accumulator_state.hpp): the merge of
// records split k mod N over N accumulators is the summary of all records in one, exactly
// while raw values are kept and within the histogram's bound beyond; a shard whose clock
// started later has its times moved onto the earliest's.
#include "bench/metrics/accumulator_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/metrics/histogram.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/util/clock.hpp"

namespace {

using bench::metrics::AccumulatorState;
using bench::metrics::ErrorClass;
using bench::metrics::Histogram;
using bench::metrics::RequestRecord;
using bench::metrics::RunAccumulator;
using bench::metrics::RunSummary;
using bench::metrics::SummaryOptions;
using bench::metrics::TokenSource;

using bench::kNsPerMs;

// Request k: starts at 3k ms, first chunk 10 + k % 7 ms later, one chunk per ms after it.
RequestRecord request(std::int64_t k) {
  RequestRecord record;
  record.index = static_cast<std::uint64_t>(k);
  record.start_ns = record.intended_start_ns = 3 * k * kNsPerMs;
  const std::int64_t chunks = 2 + k % 5;
  for (std::int64_t c = 0; c < chunks; ++c) {
    record.text_chunk_ns.push_back(record.start_ns + (10 + k % 7 + c * (1 + k % 3)) * kNsPerMs);
  }
  record.first_token_ns = record.text_chunk_ns.front();
  record.end_ns = record.text_chunk_ns.back() + kNsPerMs;
  record.prompt_tokens = 100 + k;
  record.completion_tokens = chunks;
  record.prompt_token_source = record.completion_token_source = TokenSource::usage;
  record.finish_reason = "stop";
  if (k % 11 == 5) {  // some failures, with their class and message
    record.error = ErrorClass::http_5xx;
    record.error_message = "HTTP 500: boom";
  }
  return record;
}

// Records 0..count-1 split k mod shards, each shard's accumulator saved and restored, merged.
RunSummary merged_over(std::int64_t count, std::int64_t shards, SummaryOptions options) {
  std::vector<AccumulatorState> states;
  for (std::int64_t shard = 0; shard < shards; ++shard) {
    SummaryOptions own = options;
    own.sample_budget = options.sample_budget / static_cast<std::uint64_t>(shards);
    RunAccumulator accumulator(own);
    for (std::int64_t k = shard; k < count; k += shards) accumulator.add(request(k));
    states.push_back(accumulator.state());
  }
  RunAccumulator whole(options);
  for (const AccumulatorState& state : states) {
    std::optional<RunAccumulator> part = RunAccumulator::from_state(state, 0);
    EXPECT_TRUE(part.has_value());
    whole.merge(std::move(*part));
  }
  return whole.summarize();
}

RunSummary single(std::int64_t count, SummaryOptions options) {
  RunAccumulator accumulator(options);
  for (std::int64_t k = 0; k < count; ++k) accumulator.add(request(k));
  return accumulator.summarize();
}

TEST(AccumulatorState, ShardsSplitByIndexMergeToExactlyTheSingleSummaryWhileValuesAreKept) {
  const RunSummary one = single(200, {});
  const RunSummary merged = merged_over(200, 4, {});
  EXPECT_EQ(merged.sent, one.sent);
  EXPECT_EQ(merged.completed, one.completed);
  EXPECT_EQ(merged.failed, one.failed);
  EXPECT_EQ(merged.errors.at(ErrorClass::http_5xx).count,
            one.errors.at(ErrorClass::http_5xx).count);
  EXPECT_EQ(merged.total_input_tokens, one.total_input_tokens);
  EXPECT_EQ(merged.total_output_tokens, one.total_output_tokens);
  EXPECT_DOUBLE_EQ(merged.duration_s, one.duration_s);
  EXPECT_DOUBLE_EQ(merged.output_throughput, one.output_throughput);
  EXPECT_TRUE(merged.latency_samples_exact);
  for (const auto& [a, b] : {std::pair{merged.ttft_ms, one.ttft_ms},
                             {merged.itl_ms, one.itl_ms},
                             {merged.e2e_ms, one.e2e_ms},
                             {merged.tpot_ms, one.tpot_ms}}) {
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.median, b.median);
    EXPECT_EQ(a.p99, b.p99);
    EXPECT_EQ(a.max, b.max);
    EXPECT_NEAR(a.mean, b.mean, 1e-9);
  }
  ASSERT_EQ(merged.timeline.size(), one.timeline.size());
  for (std::size_t i = 0; i < one.timeline.size(); ++i) {
    EXPECT_EQ(merged.timeline[i].started, one.timeline[i].started);
    EXPECT_EQ(merged.timeline[i].output_tokens, one.timeline[i].output_tokens);
  }
}

TEST(AccumulatorState, ShardsBeyondTheirBudgetMergeHistogramsWithinTheStatedBound) {
  SummaryOptions small;
  small.sample_budget = 40;  // 10 values a shard: every distribution goes to its histogram
  const RunSummary one = single(400, {});
  const RunSummary merged = merged_over(400, 4, small);
  EXPECT_FALSE(merged.latency_samples_exact);
  EXPECT_EQ(merged.total_output_tokens, one.total_output_tokens);
  for (const auto& [a, b] : {std::pair{merged.ttft_ms, one.ttft_ms},
                             {merged.itl_ms, one.itl_ms},
                             {merged.e2e_ms, one.e2e_ms}}) {
    EXPECT_EQ(a.count, b.count);
    EXPECT_NEAR(a.median, b.median, b.median * Histogram::kMaxRelativeError);
    EXPECT_NEAR(a.p99, b.p99, b.p99 * Histogram::kMaxRelativeError);
    EXPECT_DOUBLE_EQ(a.max, b.max);
    EXPECT_NEAR(a.mean, b.mean, 1e-9 * b.mean);
  }
}

TEST(AccumulatorState, AShardWhoseClockStartedLaterIsMovedOntoTheEarliestClock) {
  RunAccumulator early, late;
  early.add(request(0));  // 0 .. 12 ms
  late.add(request(0));   // the same, on a clock started 1 s later
  RunAccumulator whole;
  whole.merge(std::move(*RunAccumulator::from_state(early.state(), 0)));
  whole.merge(std::move(*RunAccumulator::from_state(late.state(), 1000 * kNsPerMs)));
  const RunSummary s = whole.summarize();
  EXPECT_NEAR(s.duration_s, 1.0 + 0.012, 1e-9);  // the union window
  EXPECT_EQ(s.completed, 2);
  std::int64_t started = 0;
  for (const auto& bucket : s.timeline) started += bucket.started;
  EXPECT_EQ(started, 2);
  EXPECT_EQ(s.timeline.back().started, 1);  // the late one, a second in
}

TEST(HistogramState, RoundTripsAndMergesAsIfEveryValueWereRecordedInOne) {
  Histogram a, b, all;
  for (int i = 1; i <= 500; ++i) {
    const double value = std::exp(i * 0.02) - (i % 9 == 0 ? 40 : 0);  // negatives and zeros too
    (i % 2 == 0 ? a : b).record(i % 50 == 0 ? 0.0 : value);
    all.record(i % 50 == 0 ? 0.0 : value);
  }
  std::optional<Histogram> merged = Histogram::from_state(a.state());
  ASSERT_TRUE(merged);
  merged->merge(*Histogram::from_state(b.state()));
  EXPECT_EQ(merged->count(), all.count());
  EXPECT_EQ(merged->min(), all.min());
  EXPECT_EQ(merged->max(), all.max());
  for (double p : {1.0, 25.0, 50.0, 90.0, 99.0, 99.9}) {
    EXPECT_EQ(merged->percentile(p), all.percentile(p)) << p;
  }
}

TEST(HistogramState, RefusesABucketOutOfRangeOrCountsThatDoNotAddUp) {
  Histogram h;
  h.record(5.0);
  auto state = h.state();
  state.buckets.front().sub_bucket = Histogram::kSubBuckets;
  EXPECT_FALSE(Histogram::from_state(state));
  state = h.state();
  state.count = 2;
  EXPECT_FALSE(Histogram::from_state(state));
}

}  // namespace
