// The open-loop schedule of a point: warm-up offsets first, measured ones after them, and
// nothing at all for a closed loop; offsets drawn as they are read, the same for every reader.
#include "bench/schedule/open_loop.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::schedule::ArrivalOptions;
using bench::schedule::build_open_loop_schedule;
using bench::schedule::OpenLoopPlan;
using bench::schedule::OpenLoopSchedule;

// Every offset of the schedule, read by index 0, 1, 2, ... as one client thread reads them.
std::vector<std::int64_t> offsets(const OpenLoopSchedule& schedule) {
  std::vector<std::int64_t> out;
  OpenLoopSchedule::Reader reader = schedule.reader();
  for (std::size_t i = 0; i < schedule.size(); ++i) out.push_back(*reader.offset_ns(i));
  EXPECT_FALSE(reader.offset_ns(schedule.size()).has_value());
  return out;
}

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
  EXPECT_EQ(schedule->warmup_requests(), 0u);
  EXPECT_EQ(schedule->measured_start_ns(), 0);
  EXPECT_EQ(offsets(*schedule), bench::schedule::arrival_offsets_ns(plan.measured, 10));
}

TEST(OpenLoopSchedule, CountedWarmUpComesFirstAndMeasuredStartsOneMeanGapAfterIt) {
  OpenLoopPlan plan = at_rate(100);
  plan.warmup_requests = 4;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  const std::vector<std::int64_t> all = offsets(*schedule);
  ASSERT_EQ(all.size(), 14u);
  EXPECT_EQ(schedule->warmup_requests(), 4u);
  // The first measured request is due one mean gap (10 ms) after the last warm-up one.
  EXPECT_EQ(all[4], all[3] + 10'000'000);
  EXPECT_EQ(schedule->measured_start_ns(), all[4]);
  // The warm-up draws from a stream of its own: not a copy of the measured gaps.
  const auto measured = bench::schedule::arrival_offsets_ns(plan.measured, 10);
  EXPECT_NE(all[1], measured[1]);
  for (std::size_t i = 0; i < measured.size(); ++i) EXPECT_EQ(all[4 + i], all[4] + measured[i]);
}

TEST(OpenLoopSchedule, TimedWarmUpShiftsTheMeasuredPhaseByItsLength) {
  OpenLoopPlan plan = at_rate(100);
  plan.warmup_duration_s = 0.5;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  const std::vector<std::int64_t> all = offsets(*schedule);
  const std::size_t warmup = schedule->warmup_requests();
  ASSERT_GT(warmup, 0u);
  for (std::size_t i = 0; i < warmup; ++i) EXPECT_LT(all[i], 500'000'000);
  EXPECT_EQ(all[warmup], 500'000'000);
  EXPECT_EQ(all.size() - warmup, 10u);
}

TEST(OpenLoopSchedule, ARampWarmsUpAtItsFirstRateWithoutRamping) {
  OpenLoopPlan plan = at_rate(bench::schedule::kUnlimitedRate);
  plan.measured.ramp = {bench::schedule::RampStrategy::linear, 20, 200};
  plan.warmup_requests = 3;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  // At 20 requests/s the mean gap is 50 ms: the measured phase starts one of them after warm-up.
  const std::vector<std::int64_t> all = offsets(*schedule);
  EXPECT_EQ(all[3], all[2] + 50'000'000);
}

TEST(OpenLoopSchedule, ADurationBoundsTheMeasuredPhaseByTime) {
  OpenLoopPlan plan = at_rate(100);
  plan.measured_duration_s = 0.2;
  plan.measured_requests = SIZE_MAX;  // --duration alone
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->size(), 20u);  // normalised mean rate: ceil(R x T)
  for (std::int64_t offset : offsets(*schedule)) EXPECT_LT(offset, 200'000'000);
}

// --duration with --num-prompts: whichever comes first ends the arrivals (GuideLLM's
// --max-seconds with --max-requests).
TEST(OpenLoopSchedule, ADurationAndACountEndAtWhicheverComesFirst) {
  OpenLoopPlan plan = at_rate(100);
  plan.measured_duration_s = 0.2;
  plan.measured_requests = 5;
  auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->size(), 5u);
  plan.measured_requests = 1000;
  schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->size(), 20u);
}

TEST(OpenLoopSchedule, ReadersThatSplitTheIndicesSeeTheOffsetsOneReaderSees) {
  OpenLoopPlan plan = at_rate(100);
  plan.warmup_requests = 5;
  plan.measured_requests = 101;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  const std::vector<std::int64_t> all = offsets(*schedule);
  // Two client threads: one reads the even indices, the other the odd ones, each asking for
  // its next index twice (when it is due, and when it is sent).
  for (std::size_t first : {0u, 1u}) {
    OpenLoopSchedule::Reader reader = schedule->reader();
    for (std::size_t i = first; i < all.size(); i += 2) {
      ASSERT_EQ(reader.offset_ns(i), all[i]) << i;
      ASSERT_EQ(reader.offset_ns(i), all[i]) << i;
    }
  }
}

TEST(OpenLoopSchedule, AReaderRefusesToGoBack) {
  const auto schedule = build_open_loop_schedule(at_rate(100));
  ASSERT_TRUE(schedule.has_value());
  OpenLoopSchedule::Reader reader = schedule->reader();
  ASSERT_TRUE(reader.offset_ns(5).has_value());
  EXPECT_THROW(reader.offset_ns(2), std::logic_error);
}

// A replayed trace: its offsets as given, the warm-up its first rows, the measured phase the
// rows after them at their own offsets, a rate or a duration in the plan not read.
TEST(OpenLoopSchedule, GivenOffsetsAreReplayedAsGivenWarmUpFirst) {
  OpenLoopPlan plan = at_rate(bench::schedule::kUnlimitedRate);
  plan.given_offsets_ns = std::make_shared<const std::vector<std::int64_t>>(
      std::vector<std::int64_t>{250, 250, 900, 4000, 4000, 7000});
  plan.warmup_requests = 2;
  plan.measured_requests = 3;  // one row left unsent
  plan.measured_duration_s = 1;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(schedule->warmup_requests(), 2u);
  EXPECT_EQ(schedule->measured_start_ns(), 900);
  EXPECT_EQ(offsets(*schedule), (std::vector<std::int64_t>{250, 250, 900, 4000, 4000}));
}

TEST(OpenLoopSchedule, GivenOffsetsBeyondTheRowsAreNotInvented) {
  OpenLoopPlan plan = at_rate(10);
  plan.given_offsets_ns =
      std::make_shared<const std::vector<std::int64_t>>(std::vector<std::int64_t>{0, 5});
  plan.measured_requests = 100;
  const auto schedule = build_open_loop_schedule(plan);
  ASSERT_TRUE(schedule.has_value());
  EXPECT_EQ(offsets(*schedule), (std::vector<std::int64_t>{0, 5}));
}

}  // namespace
