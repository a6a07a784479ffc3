// Reference values are numpy's: np.percentile(values, p) (method="linear") and np.std(values)
// (ddof=0), worked out by hand from h = (n - 1) * p / 100.
#include "bench/metrics/percentile.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::metrics::Distribution;
using bench::metrics::percentile_sorted;
using bench::metrics::summarize;

TEST(PercentileSorted, InterpolatesLinearlyBetweenClosestRanks) {
  const std::vector<double> values = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 50), 2.5);   // h = 1.5
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 90), 3.7);   // h = 2.7
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 95), 3.85);  // h = 2.85
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 99), 3.97);  // h = 2.97
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 25), 1.75);  // h = 0.75
}

TEST(PercentileSorted, ReturnsTheValueItselfAtAnExactRank) {
  const std::vector<double> values = {10, 20, 30, 40, 50};
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 25), 20);
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 50), 30);
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 75), 40);
}

TEST(PercentileSorted, ZeroAndHundredAreMinAndMax) {
  const std::vector<double> values = {-3, 0.5, 8};
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 0), -3);
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 100), 8);
}

TEST(PercentileSorted, ClampsOutOfRangePercentiles) {
  const std::vector<double> values = {1, 2};
  EXPECT_DOUBLE_EQ(percentile_sorted(values, -5), 1);
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 150), 2);
}

TEST(PercentileSorted, SingleValueIsEveryPercentile) {
  const std::vector<double> values = {7.5};
  for (double p : {0.0, 50.0, 90.0, 99.0, 100.0}) {
    EXPECT_DOUBLE_EQ(percentile_sorted(values, p), 7.5) << "p" << p;
  }
}

TEST(PercentileSorted, EmptyIsZero) {
  EXPECT_EQ(percentile_sorted({}, 50), 0);
  EXPECT_EQ(percentile_sorted({}, 99), 0);
}

TEST(PercentileSorted, TenValuesMatchNumpy) {
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 50), 5.5);   // h = 4.5
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 90), 9.1);   // h = 8.1
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 95), 9.55);  // h = 8.55
  EXPECT_DOUBLE_EQ(percentile_sorted(values, 99), 9.91);  // h = 8.91
}

TEST(PercentileSorted, StaysWithinNeighboursForEqualValues) {
  const std::vector<double> values = {0.1, 0.1, 0.1};
  for (double p = 0; p <= 100; p += 0.5) {
    EXPECT_EQ(percentile_sorted(values, p), 0.1) << "p" << p;
  }
}

TEST(Summarize, SortsAndSummarizesFourValues) {
  std::vector<double> values = {4, 1, 3, 2};
  const Distribution d = summarize(values);
  EXPECT_EQ(values, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(d.count, 4);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  EXPECT_DOUBLE_EQ(d.std, std::sqrt(1.25));  // population: sum of squares 5 / 4
  EXPECT_DOUBLE_EQ(d.min, 1);
  EXPECT_DOUBLE_EQ(d.median, 2.5);
  EXPECT_DOUBLE_EQ(d.p90, 3.7);
  EXPECT_DOUBLE_EQ(d.p95, 3.85);
  EXPECT_DOUBLE_EQ(d.p99, 3.97);
  EXPECT_DOUBLE_EQ(d.max, 4);
}

TEST(Summarize, SingleValueHasZeroStd) {
  std::vector<double> values = {42};
  const Distribution d = summarize(values);
  EXPECT_EQ(d.count, 1);
  EXPECT_DOUBLE_EQ(d.mean, 42);
  EXPECT_DOUBLE_EQ(d.std, 0);
  EXPECT_DOUBLE_EQ(d.min, 42);
  EXPECT_DOUBLE_EQ(d.median, 42);
  EXPECT_DOUBLE_EQ(d.p90, 42);
  EXPECT_DOUBLE_EQ(d.p99, 42);
  EXPECT_DOUBLE_EQ(d.max, 42);
}

TEST(Summarize, TwoValuesInterpolateAndUsePopulationStd) {
  std::vector<double> values = {20, 10};
  const Distribution d = summarize(values);
  EXPECT_EQ(d.count, 2);
  EXPECT_DOUBLE_EQ(d.mean, 15);
  EXPECT_DOUBLE_EQ(d.std, 5);  // np.std([10, 20]) == 5.0 (the sample std would be 7.07)
  EXPECT_DOUBLE_EQ(d.min, 10);
  EXPECT_DOUBLE_EQ(d.median, 15);
  EXPECT_DOUBLE_EQ(d.p90, 19);
  EXPECT_DOUBLE_EQ(d.p95, 19.5);
  EXPECT_DOUBLE_EQ(d.p99, 19.9);
  EXPECT_DOUBLE_EQ(d.max, 20);
}

TEST(Summarize, EmptyIsAllZeros) {
  std::vector<double> values;
  const Distribution d = summarize(values);
  EXPECT_EQ(d.count, 0);
  EXPECT_EQ(d.mean, 0);
  EXPECT_EQ(d.std, 0);
  EXPECT_EQ(d.min, 0);
  EXPECT_EQ(d.median, 0);
  EXPECT_EQ(d.p90, 0);
  EXPECT_EQ(d.p95, 0);
  EXPECT_EQ(d.p99, 0);
  EXPECT_EQ(d.max, 0);
}

}  // namespace
