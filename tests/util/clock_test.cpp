#include "bench/util/clock.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace bench;

TEST(ClockConversions, convert_between_units_as_doubles) {
  EXPECT_EQ(ns_to_ms(1'500'000), 1.5);
  EXPECT_EQ(ns_to_s(2'500'000'000), 2.5);
  EXPECT_EQ(s_to_ms(0.25), 250.0);
  EXPECT_EQ(ms_to_s(250.0), 0.25);
  EXPECT_EQ(us_to_ms(1500.0), 1.5);
  EXPECT_EQ(us_to_s(2'500'000.0), 2.5);
}

TEST(ClockConversions, rounds_milliseconds_to_the_microsecond) {
  EXPECT_EQ(ns_to_ms_rounded_to_us(1'234'567), 1.235);
  EXPECT_EQ(ns_to_ms_rounded_to_us(1'234'499), 1.234);
  EXPECT_EQ(ns_to_ms_rounded_to_us(-1'234'567), -1.235);
  EXPECT_EQ(ns_to_ms_rounded_to_us(12'300'000), 12.3);  // not 12.300000000000001
}

// A truncated count drops the fraction toward zero, as the casts it replaced did; a rounded one
// takes the nearest, half away from zero (std::llround).
TEST(ClockConversions, truncate_or_round_to_a_whole_count_as_named) {
  const double almost_a_ns = std::ldexp(1.0, -30);  // s; exactly 0.931322574615478515625 ns
  EXPECT_EQ(s_to_ns_truncated(almost_a_ns), 0);
  EXPECT_EQ(s_to_ns_rounded(almost_a_ns), 1);
  EXPECT_EQ(s_to_ns_truncated(-almost_a_ns), 0);
  EXPECT_EQ(s_to_ns_rounded(-almost_a_ns), -1);
  EXPECT_EQ(s_to_ns_truncated(1.5 * almost_a_ns), 1);
  EXPECT_EQ(s_to_ms_truncated(2.0009), 2000);
  EXPECT_EQ(s_to_ms_truncated(0.0007), 0);
  EXPECT_EQ(ms_to_ns_truncated(1.0000007), 1'000'000);
  EXPECT_EQ(ms_to_ns_rounded(1.0000007), 1'000'001);
  EXPECT_EQ(s_to_ns_truncated(90.0), 90 * kNsPerSec);
  EXPECT_EQ(s_to_ns_rounded(0.1), 100'000'000);
}

TEST(ClockConversions, timespec_and_nanoseconds_round_trip) {
  timespec time{};
  time.tv_sec = 12;
  time.tv_nsec = 345'678'901;
  EXPECT_EQ(timespec_to_ns(time), 12'345'678'901);
  const timespec back = ns_to_timespec(12'345'678'901);
  EXPECT_EQ(back.tv_sec, 12);
  EXPECT_EQ(back.tv_nsec, 345'678'901);
  EXPECT_EQ(ns_to_timespec(999).tv_sec, 0);
  EXPECT_EQ(ns_to_timespec(999).tv_nsec, 999);
}

}  // namespace
