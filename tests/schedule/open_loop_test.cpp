// The open-loop schedule of a point: warm-up offsets first, measured ones after them, and
// nothing at all for a closed loop.
#include "bench/schedule/open_loop.hpp"

#include <gtest/gtest.h>

namespace {

using bench::schedule::ArrivalOptions;
using bench::schedule::build_open_loop_schedule;
using bench::schedule::OpenLoopPlan;

OpenLoopPlan at_rate(double rate_per_s) {
  OpenLoopPlan plan;
  plan.measured.rate_per_s = rate_per_s;
  plan.measured.seed = 42;
  plan.measured_requests = 10;
  return plan;
}

TEST(OpenLoopSchedule, IsAbsentForAClosedLoop) {
  EXPECT_FALSE(build_open_loop_schedule(at_rate(bench::schedule::kUnlimitedRate)).has_value());
}

TEST(OpenLoopSchedule, WithoutWarmUpIsTheMeasuredArrivalsThemselves) {
  const OpenLoopPlan plan = at_rate(50);
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->warmup_requests, 0u);
  EXPECT_EQ(schedule->offsets_ns, bench::schedule::arrival_offsets_ns(plan.measured, 10));
}

TEST(OpenLoopSchedule, CountedWarmUpComesFirstAndMeasuredStartsOneMeanGapAfterIt) {
  OpenLoopPlan plan = at_rate(100);
  plan.warmup_requests = 4;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  ASSERT_EQ(schedule->offsets_ns.size(), 14u);
  EXPECT_EQ(schedule->warmup_requests, 4u);
  // The first measured request is due one mean gap (10 ms) after the last warm-up one.
  EXPECT_EQ(schedule->offsets_ns[4], schedule->offsets_ns[3] + 10'000'000);
  // The warm-up draws from a stream of its own: not a copy of the measured gaps.
  const auto measured = bench::schedule::arrival_offsets_ns(plan.measured, 10);
  EXPECT_NE(schedule->offsets_ns[1], measured[1]);
}

TEST(OpenLoopSchedule, TimedWarmUpShiftsTheMeasuredPhaseByItsLength) {
  OpenLoopPlan plan = at_rate(100);
  plan.warmup_duration_s = 0.5;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  ASSERT_GT(schedule->warmup_requests, 0u);
  for (std::size_t i = 0; i < schedule->warmup_requests; ++i) {
    EXPECT_LT(schedule->offsets_ns[i], 500'000'000);
  }
  EXPECT_EQ(schedule->offsets_ns[schedule->warmup_requests], 500'000'000);
  EXPECT_EQ(schedule->offsets_ns.size() - schedule->warmup_requests, 10u);
}

TEST(OpenLoopSchedule, ARampWarmsUpAtItsFirstRateWithoutRamping) {
  OpenLoopPlan plan = at_rate(bench::schedule::kUnlimitedRate);
  plan.measured.ramp = {bench::schedule::RampStrategy::linear, 20, 200};
  plan.warmup_requests = 3;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  // At 20 requests/s the mean gap is 50 ms: the measured phase starts one of them after warm-up.
  EXPECT_EQ(schedule->offsets_ns[3], schedule->offsets_ns[2] + 50'000'000);
}

TEST(OpenLoopSchedule, ADurationBoundsTheMeasuredPhaseByTime) {
  OpenLoopPlan plan = at_rate(100);
  plan.measured_duration_s = 0.2;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->offsets_ns.size(), 20u);  // normalised mean rate: ceil(R x T)
  for (std::int64_t offset : schedule->offsets_ns) EXPECT_LT(offset, 200'000'000);
}

}  // namespace
