// LatencyDistribution: exactly summarize() while under its budget, the histogram's bound past
// it, the same either way whether values arrive in one place or merged from threads.
#include "bench/metrics/latency_distribution.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "bench/metrics/percentile.hpp"

namespace {

using bench::metrics::CdfPoints;
using bench::metrics::Distribution;
using bench::metrics::Histogram;
using bench::metrics::LatencyDistribution;

std::vector<double> random_ms(std::size_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> distribution(2.5, 1.0);
  std::vector<double> values(count);
  for (double& v : values) v = distribution(random);
  return values;
}

std::vector<double> every_integer_percentile() {
  std::vector<double> ps;
  for (int p = 0; p <= 100; ++p) ps.push_back(p);
  return ps;
}

void expect_identical(const Distribution& a, const Distribution& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.mean, b.mean);
  EXPECT_EQ(a.std, b.std);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.p90, b.p90);
  EXPECT_EQ(a.p95, b.p95);
  EXPECT_EQ(a.p99, b.p99);
  EXPECT_EQ(a.max, b.max);
}

void expect_within_histogram_error(const Distribution& approximate, const Distribution& exact) {
  const double bound = Histogram::kMaxRelativeError * (1 + 1e-9);
  EXPECT_EQ(approximate.count, exact.count);
  EXPECT_EQ(approximate.min, exact.min);
  EXPECT_EQ(approximate.max, exact.max);
  EXPECT_NEAR(approximate.mean, exact.mean, exact.mean * 1e-9);
  EXPECT_NEAR(approximate.std, exact.std, exact.std * 1e-9);
  EXPECT_NEAR(approximate.median, exact.median, exact.median * bound);
  EXPECT_NEAR(approximate.p90, exact.p90, exact.p90 * bound);
  EXPECT_NEAR(approximate.p95, exact.p95, exact.p95 * bound);
  EXPECT_NEAR(approximate.p99, exact.p99, exact.p99 * bound);
}

Distribution exact_summary(std::vector<double> values) { return bench::metrics::summarize(values); }

TEST(LatencyDistribution, IsExactlySummarizeWhileUnderTheDefaultBudget) {
  const std::vector<double> values = random_ms(LatencyDistribution::kDefaultExactBudget, 1);
  LatencyDistribution distribution;
  for (double v : values) distribution.add(v);
  EXPECT_TRUE(distribution.exact());
  EXPECT_EQ(distribution.count(), values.size());
  expect_identical(distribution.summarize(), exact_summary(values));

  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<double> ps = every_integer_percentile();
  const CdfPoints cdf = distribution.cdf(ps);
  ASSERT_EQ(cdf.size(), 101u);
  for (std::size_t i = 0; i < ps.size(); ++i) {
    EXPECT_EQ(cdf[i].first, ps[i]);
    EXPECT_EQ(cdf[i].second, bench::metrics::percentile_sorted(sorted, ps[i]));
  }
  EXPECT_EQ(distribution.percentile(99.9), bench::metrics::percentile_sorted(sorted, 99.9));
}

TEST(LatencyDistribution, SwitchesToTheHistogramAtTheFirstValuePastTheBudget) {
  const std::vector<double> values = random_ms(1001, 2);
  LatencyDistribution distribution(1000);
  for (std::size_t i = 0; i < 1000; ++i) distribution.add(values[i]);
  EXPECT_TRUE(distribution.exact());
  const std::size_t exact_bytes = distribution.memory_bytes();
  EXPECT_GE(exact_bytes, 1000 * sizeof(double));

  distribution.add(values[1000]);
  EXPECT_FALSE(distribution.exact());
  EXPECT_EQ(distribution.count(), 1001u);
  expect_within_histogram_error(distribution.summarize(), exact_summary(values));
}

TEST(LatencyDistribution, StaysWithinTheHistogramBoundOnAMillionValuesPastASmallBudget) {
  const std::vector<double> values = random_ms(1'000'000, 3);
  LatencyDistribution distribution(10'000);
  for (double v : values) distribution.add(v);
  EXPECT_FALSE(distribution.exact());
  expect_within_histogram_error(distribution.summarize(), exact_summary(values));
  // A million values in a few hundred KiB instead of 8 MB.
  EXPECT_LT(distribution.memory_bytes(), 512u << 10);
}

TEST(LatencyDistribution, AddingTimesCountsEveryCopyAgainstTheBudget) {
  LatencyDistribution distribution(10);
  distribution.add(5.0, 10);
  EXPECT_TRUE(distribution.exact());
  distribution.add(7.0, 1);
  EXPECT_FALSE(distribution.exact());
  distribution.add(9.0, 0);  // nothing
  EXPECT_EQ(distribution.count(), 11u);
  const Distribution d = distribution.summarize();
  EXPECT_EQ(d.max, 7.0);
  EXPECT_NEAR(d.median, 5.0, 5.0 * Histogram::kMaxRelativeError);
  EXPECT_NEAR(d.mean, (50.0 + 7.0) / 11, 1e-12);
}

TEST(LatencyDistribution, MergedExactPartsEqualOneExactWhole) {
  const std::vector<double> values = random_ms(3000, 4);
  LatencyDistribution whole(5000);
  std::vector<LatencyDistribution> parts(3, LatencyDistribution(5000));
  for (std::size_t i = 0; i < values.size(); ++i) {
    whole.add(values[i]);
    parts[i % 3].add(values[i]);
  }
  LatencyDistribution merged(5000);
  for (const LatencyDistribution& part : parts) merged.merge(part);
  EXPECT_TRUE(merged.exact());
  expect_identical(merged.summarize(), whole.summarize());
}

TEST(LatencyDistribution, MergingPastTheBudgetEqualsAddingEverythingInOne) {
  const std::vector<double> values = random_ms(30'000, 5);
  LatencyDistribution whole(20'000);
  for (double v : values) whole.add(v);
  ASSERT_FALSE(whole.exact());

  // One part past its budget already, two still exact: every mix of modes is merged.
  std::vector<LatencyDistribution> parts(3, LatencyDistribution(20'000));
  for (std::size_t i = 0; i < values.size(); ++i) parts[i < 21'000 ? 0 : 1 + i % 2].add(values[i]);
  ASSERT_FALSE(parts[0].exact());
  ASSERT_TRUE(parts[1].exact());
  LatencyDistribution merged(20'000);
  for (const LatencyDistribution& part : {parts[1], parts[0], parts[2]}) merged.merge(part);

  EXPECT_FALSE(merged.exact());
  const Distribution a = merged.summarize();
  const Distribution b = whole.summarize();
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.p90, b.p90);
  EXPECT_EQ(a.p99, b.p99);
  EXPECT_NEAR(a.mean, b.mean, b.mean * 1e-12);
  EXPECT_NEAR(a.std, b.std, b.std * 1e-12);
  const std::vector<double> ps = every_integer_percentile();
  EXPECT_EQ(merged.cdf(ps), whole.cdf(ps));
}

TEST(LatencyDistribution, GivesAnOrderedCdfFromMinToMaxInBothModes) {
  const std::vector<double> values = random_ms(5000, 6);
  for (std::size_t budget : {std::size_t{100'000}, std::size_t{100}}) {
    LatencyDistribution distribution(budget);
    for (double v : values) distribution.add(v);
    const CdfPoints cdf = distribution.cdf(every_integer_percentile());
    ASSERT_EQ(cdf.size(), 101u);
    EXPECT_EQ(cdf.front().second, *std::min_element(values.begin(), values.end()));
    EXPECT_EQ(cdf.back().second, *std::max_element(values.begin(), values.end()));
    for (std::size_t i = 1; i < cdf.size(); ++i) {
      EXPECT_LE(cdf[i - 1].second, cdf[i].second) << "budget " << budget << " p" << i;
    }
  }
}

TEST(LatencyDistribution, AddingAfterSummarizingIsAllowed) {
  LatencyDistribution distribution;
  for (double v : {3.0, 1.0, 2.0}) distribution.add(v);
  EXPECT_EQ(distribution.summarize().median, 2.0);
  distribution.add(0.5);
  distribution.add(10.0);
  EXPECT_EQ(distribution.summarize().median, 2.0);
  EXPECT_EQ(distribution.percentile(0), 0.5);
  EXPECT_EQ(distribution.percentile(100), 10.0);
}

TEST(LatencyDistribution, LeavesOutNonFiniteValuesInBothModes) {
  for (std::size_t budget : {std::size_t{10}, std::size_t{0}}) {
    LatencyDistribution distribution(budget);
    distribution.add(1.0);
    distribution.add(std::numeric_limits<double>::quiet_NaN());
    distribution.add(std::numeric_limits<double>::infinity(), 3);
    EXPECT_EQ(distribution.exact(), budget > 0);
    EXPECT_EQ(distribution.count(), 1u);
    EXPECT_EQ(distribution.rejected(), 4u);
    EXPECT_EQ(distribution.summarize().max, 1.0);
  }
}

TEST(LatencyDistribution, EmptyIsAllZeros) {
  LatencyDistribution distribution;
  expect_identical(distribution.summarize(), Distribution{});
  LatencyDistribution spilled(0);
  spilled.add(std::numeric_limits<double>::quiet_NaN());
  expect_identical(spilled.summarize(), Distribution{});
  EXPECT_EQ(spilled.percentile(50), 0);
}

}  // namespace

namespace {

// A rate's percentile from a time's values: exactly numpy's on the rates while exact, and the
// mirrored histogram percentile (within its bound) past the budget; a 0 time at a needed rank
// has no rate.
TEST(LatencyDistribution, ReciprocalPercentileIsThePercentileOfTheRates) {
  LatencyDistribution exact;
  LatencyDistribution binned(2);
  std::vector<double> rates;
  for (int i = 1; i <= 1000; ++i) {
    const double ms = 2.0 + 0.037 * i;
    exact.add(ms);
    binned.add(ms);
    rates.push_back(1000.0 / ms);
  }
  std::sort(rates.begin(), rates.end());
  ASSERT_FALSE(binned.exact());
  for (double p : {10.0, 50.0, 99.0}) {
    EXPECT_DOUBLE_EQ(*exact.reciprocal_percentile(1000, p),
                     bench::metrics::percentile_sorted(rates, p));
    const double expected = bench::metrics::percentile_sorted(rates, p);
    EXPECT_NEAR(*binned.reciprocal_percentile(1000, p), expected,
                expected * 2 * Histogram::kMaxRelativeError);
  }
  EXPECT_FALSE(LatencyDistribution{}.reciprocal_percentile(1000, 50));
  LatencyDistribution with_zero;
  with_zero.add(0);
  with_zero.add(10);
  ASSERT_TRUE(with_zero.reciprocal_percentile(1000, 0));
  EXPECT_DOUBLE_EQ(*with_zero.reciprocal_percentile(1000, 0), 100);
  EXPECT_FALSE(with_zero.reciprocal_percentile(1000, 50));
  EXPECT_FALSE(with_zero.reciprocal_percentile(1000, 100));
}

}  // namespace
