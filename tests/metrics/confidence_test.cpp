// Confidence intervals of repeated runs and Welch's t-test, on seeded samples: the 95%
// interval covers a known mean in about 95% of trials, Welch finds a real shift and not noise,
// and the smallest significant difference is the one that just reaches p = 0.05.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "bench/metrics/confidence.hpp"

namespace {

using bench::metrics::mean_interval;
using bench::metrics::welch_test;

// One repeat of a run against a server whose every request waits a uniform jitter in
// [0, 2 x jitter_ms] (as serve-sim's --jitter-ms): the run's mean TTFT over `requests` requests.
// Uniform draws from the 53 high bits of mt19937_64, whose output the C++ standard fixes, so
// the samples are the same with every standard library.
double repeat_mean_ttft_ms(std::mt19937_64& random, double ttft_ms, double jitter_ms,
                           int requests) {
  double sum = 0;
  for (int i = 0; i < requests; ++i) {
    const double uniform = static_cast<double>(random() >> 11) * 0x1.0p-53;
    sum += ttft_ms + uniform * 2 * jitter_ms;
  }
  return sum / requests;
}

std::vector<double> repeats(std::mt19937_64& random, int count, double ttft_ms,
                            double jitter_ms = 20, int requests = 8) {
  std::vector<double> values;
  for (int i = 0; i < count; ++i) {
    values.push_back(repeat_mean_ttft_ms(random, ttft_ms, jitter_ms, requests));
  }
  return values;
}

TEST(Confidence, The95PercentIntervalOfThreeRepeatsCoversTheKnownMeanIn90To99PercentOfTrials) {
  // Three repeats (2 degrees of freedom), where Student's t (4.30) and the normal's 1.96
  // differ most: with 1.96 the interval would cover the mean in only ~80% of trials.
  std::mt19937_64 random(2026);
  const double known_mean_ms = 50 + 20;  // ttft plus the jitter's mean
  int covered = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const auto interval = mean_interval(repeats(random, 3, 50));
    ASSERT_TRUE(interval.half_width.has_value());
    covered += std::fabs(interval.mean - known_mean_ms) <= *interval.half_width;
  }
  EXPECT_GE(covered, 45);
  EXPECT_LE(covered, 49);
}

TEST(Confidence, IntervalIsTheStudentTCriticalValueTimesTheStandardError) {
  const auto interval = mean_interval({10, 12, 14});
  EXPECT_DOUBLE_EQ(interval.mean, 12);
  EXPECT_DOUBLE_EQ(*interval.std_dev, 2);
  EXPECT_NEAR(*interval.half_width, 4.302653 * 2 / std::sqrt(3.0), 1e-5);
  const auto ninety = mean_interval({10, 12, 14}, 0.90);
  EXPECT_NEAR(*ninety.half_width, 2.919986 * 2 / std::sqrt(3.0), 1e-5);
}

TEST(Confidence, OneValueHasAMeanButNoInterval) {
  const auto interval = mean_interval({7.5});
  EXPECT_EQ(interval.count, 1u);
  EXPECT_DOUBLE_EQ(interval.mean, 7.5);
  EXPECT_FALSE(interval.half_width.has_value());
  EXPECT_FALSE(interval.std_dev.has_value());
}

TEST(Confidence, WelchMatchesAWorkedExample) {
  // Means 20 and 23, variances 10/3 and 9, n 4 and 5: se^2 = 5/6 + 9/5, df 6.6583, t 1.84871;
  // p = I_x(df/2, 1/2) at x = df / (df + t^2) = 0.109137 (mpmath.betainc).
  const auto test = welch_test({18, 19, 21, 22}, {20, 20, 23, 26, 26});
  ASSERT_TRUE(test.has_value());
  EXPECT_DOUBLE_EQ(test->difference, 3);
  EXPECT_NEAR(test->standard_error, std::sqrt(5.0 / 6 + 9.0 / 5), 1e-12);
  EXPECT_NEAR(test->degrees_of_freedom, 6.658250, 1e-5);
  EXPECT_NEAR(test->t, 1.848708, 1e-5);
  EXPECT_NEAR(test->p_value, 0.109137, 1e-6);
}

TEST(Confidence, WelchCallsNoiseNoChangeAndATenPercentShiftReal) {
  std::mt19937_64 random(7);
  int false_alarms = 0;
  int found = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<double> base = repeats(random, 5, 50, 5, 64);
    false_alarms += welch_test(base, repeats(random, 5, 50, 5, 64))->p_value < 0.05;
    found += welch_test(base, repeats(random, 5, 60.5, 5, 64))->p_value < 0.05;  // +10% of 55
  }
  EXPECT_LE(false_alarms, 7);  // 2.5 expected at alpha 0.05
  EXPECT_EQ(found, 50);
}

TEST(Confidence, TheSmallestSignificantDifferenceJustReachesPointZeroFive) {
  const std::vector<double> base = {100, 104, 98, 102};
  std::vector<double> shifted = {101, 103, 97, 99};
  const auto test = welch_test(base, shifted);
  ASSERT_TRUE(test.has_value());
  const double shift = test->min_significant_difference - test->difference;
  for (double& value : shifted) value += shift * 1.0001;
  EXPECT_LT(welch_test(base, shifted)->p_value, 0.05);
  for (double& value : shifted) value -= shift * 0.0002;
  EXPECT_GT(welch_test(base, shifted)->p_value, 0.05);
}

TEST(Confidence, WelchNeedsTwoValuesASideAndCallsAnyShiftWithoutSpreadReal) {
  EXPECT_FALSE(welch_test({1}, {1, 2}).has_value());
  EXPECT_DOUBLE_EQ(welch_test({5, 5}, {5, 5})->p_value, 1.0);
  EXPECT_DOUBLE_EQ(welch_test({5, 5}, {6, 6})->p_value, 0.0);
  EXPECT_DOUBLE_EQ(welch_test({5, 5}, {6, 6})->min_significant_difference, 0.0);
}

}  // namespace
