// The log-linear histogram against exact numpy-linear percentiles (percentile_sorted) on a
// million samples of several shapes, its merge against recording everything in one, and its
// memory against the bound its header states.
#include "bench/metrics/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bench/metrics/percentile.hpp"

namespace {

using bench::metrics::Histogram;
using bench::metrics::percentile_sorted;

constexpr std::size_t kSamples = 1'000'000;

// Percentiles that test the body and both tails, and every integer one (CDF plots).
std::vector<double> percentiles_to_check() {
  std::vector<double> ps = {0.01, 0.1, 0.5, 99.5, 99.9, 99.99, 99.999};
  for (int p = 0; p <= 100; ++p) ps.push_back(p);
  return ps;
}

std::vector<double> uniform_ms(std::mt19937_64& random) {
  std::uniform_real_distribution<double> distribution(0.0, 1000.0);
  std::vector<double> values(kSamples);
  for (double& v : values) v = distribution(random);
  return values;
}

// A heavy right tail: median e^3 = 20 ms, p99.99 in the tens of seconds.
std::vector<double> lognormal_ms(std::mt19937_64& random) {
  std::lognormal_distribution<double> distribution(3.0, 1.5);
  std::vector<double> values(kSamples);
  for (double& v : values) v = distribution(random);
  return values;
}

// Two modes a decade apart (decode steps and prefill stalls), 80/20.
std::vector<double> bimodal_ms(std::mt19937_64& random) {
  std::normal_distribution<double> fast(20.0, 2.0), slow(200.0, 20.0);
  std::bernoulli_distribution is_slow(0.2);
  std::vector<double> values(kSamples);
  for (double& v : values) v = std::fabs(is_slow(random) ? slow(random) : fast(random));
  return values;
}

double relative_error(double approximate, double exact) {
  if (exact == 0) return approximate == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::fabs(approximate - exact) / std::fabs(exact);
}

// Every checked percentile within the stated bound (and so within 0.1%); returns the worst.
double expect_percentiles_close(const std::vector<double>& values) {
  Histogram histogram;
  for (double v : values) histogram.record(v);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());

  const std::vector<double> ps = percentiles_to_check();
  const std::vector<double> approximate = histogram.percentiles(ps);
  double worst = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const double exact = percentile_sorted(sorted, ps[i]);
    const double error = relative_error(approximate[i], exact);
    EXPECT_LE(error, 0.001) << "p" << ps[i] << ": " << approximate[i] << " vs " << exact;
    EXPECT_LE(error, Histogram::kMaxRelativeError * (1 + 1e-9)) << "p" << ps[i];
    EXPECT_EQ(histogram.percentile(ps[i]), approximate[i]) << "p" << ps[i];
    worst = std::max(worst, error);
  }
  EXPECT_EQ(histogram.count(), values.size());
  EXPECT_EQ(histogram.min(), sorted.front());
  EXPECT_EQ(histogram.max(), sorted.back());
  std::vector<double> copy = values;
  const bench::metrics::Distribution exact = bench::metrics::summarize(copy);
  EXPECT_NEAR(histogram.mean(), exact.mean, exact.mean * 1e-9);
  EXPECT_NEAR(histogram.stddev(), exact.std, exact.std * 1e-9);
  return worst;
}

TEST(Histogram, PercentilesOfAMillionUniformSamplesAreWithinATenthOfAPercent) {
  std::mt19937_64 random(1);
  const double worst = expect_percentiles_close(uniform_ms(random));
  RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(Histogram, PercentilesOfAMillionHeavyTailedSamplesAreWithinATenthOfAPercent) {
  std::mt19937_64 random(2);
  const double worst = expect_percentiles_close(lognormal_ms(random));
  RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(Histogram, PercentilesOfAMillionBimodalSamplesAreWithinATenthOfAPercent) {
  std::mt19937_64 random(3);
  const double worst = expect_percentiles_close(bimodal_ms(random));
  RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(Histogram, MergingPartsEqualsRecordingEverythingInOne) {
  std::mt19937_64 random(4);
  const std::vector<double> values = lognormal_ms(random);
  Histogram whole;
  for (double v : values) whole.record(v);
  // Four "threads", each with a different share and a different range of values.
  std::vector<Histogram> parts(4);
  for (std::size_t i = 0; i < values.size(); ++i) parts[(i * i) % 4].record(values[i]);
  Histogram merged;
  for (const Histogram& part : parts) merged.merge(part);

  EXPECT_EQ(merged.count(), whole.count());
  EXPECT_EQ(merged.min(), whole.min());
  EXPECT_EQ(merged.max(), whole.max());
  EXPECT_NEAR(merged.mean(), whole.mean(), whole.mean() * 1e-12);
  EXPECT_NEAR(merged.stddev(), whole.stddev(), whole.stddev() * 1e-12);
  const std::vector<double> ps = percentiles_to_check();
  EXPECT_EQ(merged.percentiles(ps), whole.percentiles(ps));
  EXPECT_EQ(merged.memory_bytes(), whole.memory_bytes());
}

TEST(Histogram, MergingIntoAnEmptyOneOrFromAnEmptyOneChangesNothing) {
  Histogram some;
  for (double v : {3.0, 1.0, 2.0}) some.record(v);
  Histogram empty;
  Histogram copy = some;
  copy.merge(empty);
  empty.merge(some);
  for (const Histogram* h : {&copy, &empty}) {
    EXPECT_EQ(h->count(), 3u);
    EXPECT_EQ(h->min(), 1.0);
    EXPECT_EQ(h->max(), 3.0);
    EXPECT_DOUBLE_EQ(h->mean(), 2.0);
    EXPECT_EQ(h->percentile(50), some.percentile(50));
  }
}

TEST(Histogram, RecordingTimesEqualsRecordingOneByOne) {
  Histogram batched, single;
  batched.record(4.25, 1000);
  batched.record(9.5, 3);
  for (int i = 0; i < 1000; ++i) single.record(4.25);
  for (int i = 0; i < 3; ++i) single.record(9.5);
  EXPECT_EQ(batched.count(), single.count());
  EXPECT_DOUBLE_EQ(batched.mean(), single.mean());
  EXPECT_NEAR(batched.stddev(), single.stddev(), 1e-12);
  const std::vector<double> ps = percentiles_to_check();
  EXPECT_EQ(batched.percentiles(ps), single.percentiles(ps));
}

TEST(Histogram, MemoryIsEightKibPerOctaveSpannedWhateverTheCount) {
  Histogram histogram;
  const std::size_t empty_bytes = histogram.memory_bytes();
  // Milliseconds from 1 us to 1 h: octaves 2^-10 .. 2^21, 32 of them.
  histogram.record(1e-3);
  histogram.record(3.6e6);
  const std::size_t spanned = histogram.memory_bytes();
  EXPECT_EQ(spanned, empty_bytes + 32 * Histogram::kSubBuckets * sizeof(std::uint64_t));
  EXPECT_EQ(spanned - empty_bytes, 256u << 10);

  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> log_ms(std::log(1e-3), std::log(3.6e6));
  for (std::size_t i = 0; i < kSamples; ++i) histogram.record(std::exp(log_ms(random)));
  EXPECT_EQ(histogram.memory_bytes(), spanned);
  EXPECT_EQ(histogram.count(), kSamples + 2);
}

TEST(Histogram, OrdersNegativesZerosAndPositives) {
  const std::vector<double> values = {-1000, -5, -1, -0.001, 0, 0, -0.0, 1e-320, 0.001, 1, 5, 1000};
  Histogram histogram;
  for (double v : values) histogram.record(v);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (double p : percentiles_to_check()) {
    const double exact = percentile_sorted(sorted, p);
    const double approximate = histogram.percentile(p);
    // Relative to the larger neighbouring magnitude where the interpolation crosses zero.
    const double h = static_cast<double>(sorted.size() - 1) * p / 100;
    const double scale = std::max(std::fabs(sorted[static_cast<std::size_t>(std::floor(h))]),
                                  std::fabs(sorted[static_cast<std::size_t>(std::ceil(h))]));
    EXPECT_LE(std::fabs(approximate - exact), scale * Histogram::kMaxRelativeError + 1e-300)
        << "p" << p << ": " << approximate << " vs " << exact;
  }
  EXPECT_EQ(histogram.min(), -1000);
  EXPECT_EQ(histogram.max(), 1000);
  EXPECT_EQ(histogram.percentile(50), 0);  // the zeros (and the subnormal counted as zero)
}

TEST(Histogram, OneValueIsEveryPercentileExactly) {
  Histogram histogram;
  histogram.record(12.3456, 5);
  for (double p : percentiles_to_check()) EXPECT_EQ(histogram.percentile(p), 12.3456) << p;
  EXPECT_EQ(histogram.stddev(), 0);
}

TEST(Histogram, EmptyIsAllZeros) {
  const Histogram histogram;
  EXPECT_EQ(histogram.count(), 0u);
  EXPECT_EQ(histogram.min(), 0);
  EXPECT_EQ(histogram.max(), 0);
  EXPECT_EQ(histogram.mean(), 0);
  EXPECT_EQ(histogram.stddev(), 0);
  EXPECT_EQ(histogram.percentile(50), 0);
  EXPECT_EQ(histogram.percentile(100), 0);
}

TEST(Histogram, LeavesOutNanAndInfinityAndCountsThem) {
  Histogram histogram;
  histogram.record(2.0);
  histogram.record(std::numeric_limits<double>::quiet_NaN());
  histogram.record(std::numeric_limits<double>::infinity(), 2);
  histogram.record(-std::numeric_limits<double>::infinity());
  EXPECT_EQ(histogram.count(), 1u);
  EXPECT_EQ(histogram.rejected(), 4u);
  EXPECT_EQ(histogram.max(), 2.0);
  EXPECT_EQ(histogram.mean(), 2.0);
}

TEST(Histogram, ClampsPercentilesAndTreatsNanLikePercentileSorted) {
  Histogram histogram;
  for (double v : {1.0, 2.0, 3.0}) histogram.record(v);
  EXPECT_EQ(histogram.percentile(-5), 1.0);
  EXPECT_EQ(histogram.percentile(150), 3.0);
  EXPECT_EQ(histogram.percentile(std::numeric_limits<double>::quiet_NaN()), 0.0);
}

TEST(Histogram, KeepsItsBoundAtTheExtremesOfDoubles) {
  Histogram histogram;
  const double largest = std::numeric_limits<double>::max();
  const double smallest_normal = std::numeric_limits<double>::min();
  for (double v : {largest, largest / 3, smallest_normal, smallest_normal * 7}) histogram.record(v);
  EXPECT_EQ(histogram.percentile(100), largest);
  EXPECT_EQ(histogram.percentile(0), smallest_normal);
  EXPECT_LE(relative_error(histogram.percentile(200.0 / 3), largest / 3),
            Histogram::kMaxRelativeError);
  EXPECT_LE(relative_error(histogram.percentile(100.0 / 3), smallest_normal * 7),
            Histogram::kMaxRelativeError);
}

}  // namespace
