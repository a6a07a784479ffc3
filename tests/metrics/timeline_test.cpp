// Timeline: per-bucket counts that add up to the run's totals, in-flight at bucket ends, the
// steady-state window (ramp-up and drain left out), coarsening of long runs, merging.
#include "bench/metrics/timeline.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bench/util/clock.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::metrics::Timeline;
using bench::metrics::TimelineBucket;

using bench::kNsPerMs;

// A completed request from start_ms to end_ms with `tokens` one-token chunks spread evenly.
RequestRecord request(std::int64_t start_ms, std::int64_t end_ms, int tokens,
                      std::int64_t prompt_tokens = 10) {
  RequestRecord r;
  r.start_ns = r.intended_start_ns = start_ms * kNsPerMs;
  r.end_ns = end_ms * kNsPerMs;
  for (int i = 0; i < tokens; ++i) {
    r.text_chunk_ns.push_back(start_ms * kNsPerMs +
                              (end_ms - start_ms) * kNsPerMs * (i + 1) / (tokens + 1));
  }
  r.first_token_ns = r.text_chunk_ns.empty() ? -1 : r.text_chunk_ns.front();
  r.completion_tokens = tokens;
  r.prompt_tokens = prompt_tokens;
  r.finish_reason = "length";
  return r;
}

TEST(Timeline, BucketsAddUpToTheRunsTotals) {
  Timeline timeline(0, 10 * kNsPerMs);
  timeline.add(request(0, 2500, 20));
  timeline.add(request(500, 1500, 10));
  RequestRecord failed = request(100, 2100, 0);
  failed.error = bench::metrics::ErrorClass::http_5xx;
  timeline.add(failed);
  const auto buckets = timeline.buckets(1000 * kNsPerMs);
  ASSERT_EQ(buckets.size(), 3u);
  std::int64_t started = 0, finished = 0, output = 0, input = 0, errors = 0;
  for (const auto& b : buckets) {
    started += b.started;
    finished += b.finished;
    output += b.output_tokens;
    input += b.input_tokens;
    errors += b.errors;
  }
  EXPECT_EQ(started, 3);
  EXPECT_EQ(finished, 3);
  EXPECT_EQ(output, 30);
  EXPECT_EQ(input, 20);  // the failed request's prompt tokens do not count
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(buckets[0].t_s, 0.0);
  EXPECT_EQ(buckets[1].t_s, 1.0);
  EXPECT_EQ(buckets[0].in_flight, 3);  // all three started in the first second
  EXPECT_EQ(buckets[1].in_flight, 2);  // one ended at 1.5 s
  EXPECT_EQ(buckets[2].in_flight, 0);
}

TEST(Timeline, SplitsAChunksTokensExactlyWhenPerChunkUsageIsKnown) {
  Timeline timeline(0, 10 * kNsPerMs);
  RequestRecord r = request(0, 3000, 2);
  r.text_chunk_ns = {100 * kNsPerMs, 2100 * kNsPerMs};
  r.text_chunk_tokens = {1, 7};
  r.completion_tokens = 8;
  timeline.add(r);
  const auto buckets = timeline.buckets(1000 * kNsPerMs);
  EXPECT_EQ(buckets[0].output_tokens, 1);
  EXPECT_EQ(buckets[2].output_tokens, 7);
}

// A closed loop at concurrency 4: a ramp-up of one request every 100 ms, then each request
// replaced as it ends, then a drain.
std::vector<RequestRecord> closed_loop() {
  std::vector<RequestRecord> records;
  for (int slot = 0; slot < 4; ++slot) {
    std::int64_t t = slot * 100;
    for (int round = 0; round < 10; ++round) {
      records.push_back(request(t, t + 1000, 100));
      t += 1000;
    }
  }
  return records;
}

TEST(Timeline, SteadyStateIsWhereTheTargetConcurrencyWasHeld) {
  Timeline timeline(0, 10 * kNsPerMs);
  const auto records = closed_loop();
  for (const auto& r : records) timeline.add(r);
  const auto steady = timeline.steady_state(4);
  ASSERT_TRUE(steady.found);
  // 90% of 4 rounds up to 4: from the 4th start (0.3 s) to the first slot's last end (10 s).
  EXPECT_NEAR(steady.start_s, 0.3, 0.011);
  EXPECT_NEAR(steady.end_s, 10.0, 0.011);
  // Four streams of 100 tokens per second each.
  EXPECT_NEAR(steady.output_throughput, 400.0, 400.0 * 0.03);
  EXPECT_NEAR(steady.total_throughput, steady.output_throughput + steady.input_throughput, 1e-9);
  int ended_inside = 0;
  for (const auto& r : records) {
    const double end_s = static_cast<double>(r.end_ns) / 1e9;
    if (end_s >= steady.start_s && end_s < steady.end_s) ++ended_inside;
  }
  EXPECT_NEAR(steady.request_throughput, ended_inside / (steady.end_s - steady.start_s), 1e-9);
}

// A flat closed loop: `slots` streams, each running `rounds` requests of `request_ms` back to
// back, all in step (a lockstep run, as a batching server produces).
std::vector<RequestRecord> lockstep(int slots, int rounds, std::int64_t request_ms, int tokens) {
  std::vector<RequestRecord> records;
  for (int slot = 0; slot < slots; ++slot) {
    for (int round = 0; round < rounds; ++round) {
      records.push_back(request(round * request_ms, (round + 1) * request_ms, tokens));
    }
  }
  return records;
}

TEST(Timeline, SteadyStateOfALockstepRunCountsTheWaveThatEndsIt) {
  Timeline timeline(0, 10 * kNsPerMs);
  // Four waves of 16 requests, 245 ms each: the last wave ends at 0.98 s, inside a 10 ms step
  // whose end has nothing in flight.
  for (const auto& r : lockstep(16, 4, 245, 16)) timeline.add(r);
  const auto steady = timeline.steady_state(16);
  ASSERT_TRUE(steady.found);
  EXPECT_GE(steady.end_s, 0.98);
  const double whole_run_request_throughput = 64 / 0.98;
  EXPECT_NEAR(steady.request_throughput, whole_run_request_throughput,
              whole_run_request_throughput * 0.02);
}

TEST(Timeline, APartialLastBucketIsAsWideAsTheRunLeftItSoItsRateIsTheRunsRate) {
  Timeline timeline(0, 10 * kNsPerMs);
  // 4 streams of 100 tokens per 500 ms, for 2.5 s: 800 output tok/s throughout.
  for (const auto& r : lockstep(4, 5, 500, 100)) timeline.add(r);
  const auto buckets = timeline.buckets(1000 * kNsPerMs);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(buckets[0].width_s, 1.0);
  EXPECT_NEAR(buckets[2].width_s, 0.5, 0.011);  // the last event's 10 ms step included
  for (const auto& b : buckets) {
    EXPECT_NEAR(b.output_throughput(), 800.0, 800.0 * 0.03) << "bucket at " << b.t_s << " s";
    EXPECT_NEAR(b.input_throughput(), static_cast<double>(b.input_tokens) / b.width_s, 1e-9);
  }
}

TEST(Timeline, MeanInFlightOfEveryBucketInTheSteadyStateWindowIsSteady) {
  Timeline timeline(0, 10 * kNsPerMs);
  for (const auto& r : lockstep(4, 5, 500, 100)) timeline.add(r);
  const auto steady = timeline.steady_state(4);
  ASSERT_TRUE(steady.found);
  const auto buckets = timeline.buckets(1000 * kNsPerMs);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets.back().in_flight, 0);  // at the end of the run: everything has ended
  for (const auto& b : buckets) {
    ASSERT_LT(b.t_s, steady.end_s);  // every bucket overlaps the window
    EXPECT_GE(b.mean_in_flight, 0.9 * 4) << "bucket at " << b.t_s << " s";
    EXPECT_LE(b.mean_in_flight, 4.0);
  }
}

TEST(Timeline, SteadyStateOfAnOpenLoopRunIsMeasuredAgainstThePeak) {
  Timeline timeline(0, 10 * kNsPerMs);
  for (const auto& r : closed_loop()) timeline.add(r);
  const auto steady = timeline.steady_state(0);
  EXPECT_TRUE(steady.found);
  EXPECT_EQ(steady.target_in_flight, 4);
}

TEST(Timeline, NoSteadyStateWhenTheTargetWasNeverReached) {
  Timeline timeline(0, 10 * kNsPerMs);
  timeline.add(request(0, 1000, 10));
  EXPECT_FALSE(timeline.steady_state(64).found);
}

TEST(Timeline, MergingTimelinesEqualsAddingEverythingToOne) {
  Timeline one(0, 10 * kNsPerMs), left(0, 10 * kNsPerMs), right(0, 10 * kNsPerMs);
  const auto records = closed_loop();
  for (std::size_t i = 0; i < records.size(); ++i) {
    one.add(records[i]);
    (i % 2 == 0 ? left : right).add(records[i]);
  }
  left.merge(right);
  const auto a = one.buckets(1000 * kNsPerMs);
  const auto b = left.buckets(1000 * kNsPerMs);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].started, b[i].started);
    EXPECT_EQ(a[i].in_flight, b[i].in_flight);
    EXPECT_EQ(a[i].output_tokens, b[i].output_tokens);
  }
}

TEST(Timeline, AVeryLongRunCoarsensItsStepsAndKeepsItsTotals) {
  Timeline timeline(0, 10 * kNsPerMs);
  const std::int64_t day_ms = 24LL * 3600 * 1000;
  timeline.add(request(0, 1000, 10));
  timeline.add(request(day_ms, day_ms + 1000, 10));
  EXPECT_GT(timeline.step_ns(), 10 * kNsPerMs);
  std::int64_t output = 0, started = 0;
  for (const auto& b : timeline.buckets(3600LL * 1000 * kNsPerMs)) {
    output += b.output_tokens;
    started += b.started;
  }
  EXPECT_EQ(output, 20);
  EXPECT_EQ(started, 2);
}

// A --duration 24h run: at most 65,536 steps kept, and per-second buckets widened to fit 3,600.
TEST(Timeline, ADayLongRunHasABoundedTimelineWithWiderBucketsThatKeepItsTotals) {
  Timeline timeline(0, 10 * kNsPerMs);
  const std::int64_t day_s = 24LL * 3600;
  for (std::int64_t s = 0; s < day_s; s += 60) timeline.add(request(s * 1000, s * 1000 + 500, 2));
  EXPECT_GE(timeline.step_ns() * 65'536, day_s * 1000 * kNsPerMs);  // the steps cover the day
  EXPECT_LE(timeline.step_ns() * 32'768, day_s * 1000 * kNsPerMs);  // and were not coarsened more
  const std::int64_t width_ns = timeline.bucket_width_ns(1000 * kNsPerMs);
  const std::vector<TimelineBucket> buckets = timeline.buckets(1000 * kNsPerMs);
  EXPECT_LE(buckets.size(), Timeline::kMaxBuckets);
  EXPECT_GT(buckets.size(), Timeline::kMaxBuckets / 2);
  EXPECT_DOUBLE_EQ(buckets[1].t_s, static_cast<double>(width_ns) / 1e9);
  std::int64_t output = 0, started = 0;
  for (const TimelineBucket& b : buckets) {
    output += b.output_tokens;
    started += b.started;
  }
  EXPECT_EQ(started, day_s / 60);
  EXPECT_EQ(output, 2 * day_s / 60);
}

}  // namespace

namespace {

TEST(Timeline, StartsAtTheFirstMeasuredRequestWhateverCameBefore) {
  Timeline timeline(0, 10 * kNsPerMs);
  timeline.add(request(5000, 6500, 10));  // warm-up filled the first 5 s: not measured
  const auto buckets = timeline.buckets(1000 * kNsPerMs);
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0].t_s, 0.0);
  EXPECT_EQ(buckets[0].started, 1);
  EXPECT_EQ(buckets[1].finished, 1);
}

}  // namespace
