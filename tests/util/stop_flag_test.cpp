// What each SIGINT/SIGTERM asks of a run, by when it comes (util/stop_flag.hpp).
#include "bench/util/stop_flag.hpp"

#include <gtest/gtest.h>

namespace {

using Verdict = bench::StopFlag::Verdict;

TEST(StopFlag, BeforeTheMeasuredPhaseASignalEndsTheProcess) {
  bench::StopFlag flag;
  EXPECT_EQ(flag.note_signal(1'000), Verdict::exit_now);
  EXPECT_FALSE(flag.load());
}

TEST(StopFlag, TheFirstSignalOfTheMeasuredPhaseAsksAStop) {
  bench::StopFlag flag;
  flag.begin_measuring();
  EXPECT_FALSE(flag.load());
  EXPECT_EQ(flag.note_signal(1'000), Verdict::stop);
  EXPECT_TRUE(flag.load());
  EXPECT_FALSE(flag.forced());
}

TEST(StopFlag, SignalsWithinASecondOfTheFirstAreTheSameStop) {
  bench::StopFlag flag;
  flag.begin_measuring();
  ASSERT_EQ(flag.note_signal(1'000), Verdict::stop);
  EXPECT_EQ(flag.note_signal(1'000), Verdict::same_signal);  // timeout: bench, then its group
  EXPECT_EQ(flag.note_signal(1'999), Verdict::same_signal);
  EXPECT_FALSE(flag.forced());
}

TEST(StopFlag, ALaterSignalForcesTheQuitAndOneAfterThatEndsTheProcess) {
  bench::StopFlag flag;
  flag.begin_measuring();
  ASSERT_EQ(flag.note_signal(1'000), Verdict::stop);
  EXPECT_EQ(flag.note_signal(2'000), Verdict::force);
  EXPECT_TRUE(flag.forced());
  EXPECT_EQ(flag.note_signal(2'500), Verdict::same_signal);  // the forced quit's own window
  EXPECT_EQ(flag.note_signal(3'000), Verdict::exit_now);
}

TEST(StopFlag, TheMeasuredPhaseStaysBegun) {
  bench::StopFlag flag;
  flag.begin_measuring();
  flag.begin_measuring();
  EXPECT_EQ(flag.note_signal(5), Verdict::stop);
}

TEST(StopFlag, ARequestedStopIsAStopWithoutASignal) {
  bench::StopFlag flag;
  flag.request();
  EXPECT_TRUE(flag.load());
  EXPECT_FALSE(flag.forced());
  flag.request(/*force=*/true);
  EXPECT_TRUE(flag.forced());
}

}  // namespace
