// Ramp-up, as vLLM defines it for a request count (vllm/benchmarks/serve.py,
// _get_current_request_rate) and over time for a deadline. The expected rates are written out
// here from the formulas, not taken from the library.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/schedule/arrival.hpp"
#include "bench/util/clock.hpp"

namespace {

using bench::schedule::arrival_offsets_ns;
using bench::schedule::arrival_offsets_until_ns;
using bench::schedule::ArrivalOptions;
using bench::schedule::ArrivalProcess;
using bench::schedule::parse_arrival_process;
using bench::schedule::parse_ramp_strategy;
using bench::schedule::ramp_rate_per_s;
using bench::schedule::RampStrategy;
using bench::schedule::RampUp;

using bench::kNsPerSec;

ArrivalOptions ramped(RampStrategy strategy, double start, double end,
                      ArrivalProcess process = ArrivalProcess::constant, std::uint64_t seed = 42) {
  ArrivalOptions options;
  options.process = process;
  options.ramp = {strategy, start, end};
  options.seed = seed;
  return options;
}

double gap_s(const std::vector<std::int64_t>& offsets, std::size_t i) {
  return static_cast<double>(offsets[i] - offsets[i - 1]) / 1e9;
}

void expect_starts_at_zero_and_never_decreases(const std::vector<std::int64_t>& offsets) {
  ASSERT_FALSE(offsets.empty());
  EXPECT_EQ(offsets.front(), 0);
  for (std::size_t i = 1; i < offsets.size(); ++i) ASSERT_LE(offsets[i - 1], offsets[i]);
}

TEST(RampUp, RateFormulaAtTheEndsAndMiddle) {
  const RampUp linear{RampStrategy::linear, 2.0, 10.0};
  EXPECT_DOUBLE_EQ(ramp_rate_per_s(linear, 0.0), 2.0);
  EXPECT_DOUBLE_EQ(ramp_rate_per_s(linear, 0.5), 6.0);
  EXPECT_DOUBLE_EQ(ramp_rate_per_s(linear, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(ramp_rate_per_s(linear, 3.0), 10.0);  // clamped
  const RampUp exponential{RampStrategy::exponential, 1.0, 100.0};
  EXPECT_DOUBLE_EQ(ramp_rate_per_s(exponential, 0.0), 1.0);
  EXPECT_NEAR(ramp_rate_per_s(exponential, 0.5), 10.0, 1e-12);
  EXPECT_NEAR(ramp_rate_per_s(exponential, 1.0), 100.0, 1e-12);
}

// Count mode, constant gaps: the gap before request i is 1 / rate(i / (N - 1)), as vLLM draws
// request i's delay at its current rate.
TEST(RampUp, LinearRampOverACountGivesVllmsRatePerRequest) {
  const std::size_t n = 101;
  const std::vector<std::int64_t> offsets =
      arrival_offsets_ns(ramped(RampStrategy::linear, 2.0, 10.0), n);
  ASSERT_EQ(offsets.size(), n);
  expect_starts_at_zero_and_never_decreases(offsets);
  for (std::size_t i : {1u, 10u, 25u, 50u, 75u, 100u}) {
    const double rate = 2.0 + 8.0 * static_cast<double>(i) / 100.0;
    EXPECT_NEAR(gap_s(offsets, i), 1.0 / rate, 2e-9) << "request " << i;
  }
}

TEST(RampUp, ExponentialRampOverACountGivesVllmsRatePerRequest) {
  const std::size_t n = 201;
  const std::vector<std::int64_t> offsets =
      arrival_offsets_ns(ramped(RampStrategy::exponential, 1.0, 64.0), n);
  expect_starts_at_zero_and_never_decreases(offsets);
  for (std::size_t i : {1u, 50u, 100u, 150u, 200u}) {
    const double rate = std::pow(64.0, static_cast<double>(i) / 200.0);
    EXPECT_NEAR(gap_s(offsets, i) * rate, 1.0, 1e-7) << "request " << i;
  }
}

// vLLM asserts a positive rate for every request, so its linear ramp cannot start at 0; here
// the first request has no gap before it, and the ramp from 0 works.
TEST(RampUp, LinearRampFromZeroOverACountHasFiniteGaps) {
  const std::vector<std::int64_t> offsets =
      arrival_offsets_ns(ramped(RampStrategy::linear, 0.0, 9.0), 10);
  expect_starts_at_zero_and_never_decreases(offsets);
  EXPECT_NEAR(gap_s(offsets, 1), 1.0, 1e-9);  // rate(1/9) = 1
  EXPECT_NEAR(gap_s(offsets, 9), 1.0 / 9.0, 1e-9);
}

// Gamma gaps over a count: the mean gap of each stretch of requests follows 1 / rate(i/(N-1)).
TEST(RampUp, PoissonRampOverACountFollowsTheRateInEveryStretch) {
  const std::size_t n = 20001;
  const std::size_t stretch = 4000;
  std::vector<double> observed(5, 0.0);
  std::vector<double> expected(5, 0.0);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<std::int64_t> offsets = arrival_offsets_ns(
        ramped(RampStrategy::linear, 10.0, 100.0, ArrivalProcess::poisson_gamma, seed), n);
    expect_starts_at_zero_and_never_decreases(offsets);
    for (std::size_t i = 1; i < n; ++i) {
      const std::size_t bucket = (i - 1) / stretch;
      observed[bucket] += gap_s(offsets, i);
      expected[bucket] += 1.0 / (10.0 + 90.0 * static_cast<double>(i) / (n - 1));
    }
  }
  for (std::size_t bucket = 0; bucket < observed.size(); ++bucket) {
    EXPECT_NEAR(observed[bucket] / expected[bucket], 1.0, 0.04) << "stretch " << bucket;
  }
}

// Deadline mode, constant gaps: request i is where the cumulative rate reaches i,
// Lambda(t) = s t + (e - s) t^2 / (2 T); and between two requests the rate is the linear
// rate at their midpoint, exactly.
TEST(RampUp, LinearRampOverADeadlinePlacesRequestsWhereTheCumulativeRateIsWhole) {
  const double s = 1.0, e = 9.0, horizon_s = 10.0;
  const std::vector<std::int64_t> offsets =
      arrival_offsets_until_ns(ramped(RampStrategy::linear, s, e), 10 * kNsPerSec, 100000);
  // Lambda(T) = T (s + e) / 2 = 50: requests 0..49 start before T, request 50 is due at T.
  ASSERT_EQ(offsets.size(), 50u);
  expect_starts_at_zero_and_never_decreases(offsets);
  const auto lambda = [&](double t) { return s * t + (e - s) * t * t / (2.0 * horizon_s); };
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_NEAR(lambda(static_cast<double>(offsets[i]) / 1e9), static_cast<double>(i), 1e-6);
  }
  for (std::size_t i : {1u, 10u, 30u, 49u}) {
    const double mid_s = static_cast<double>(offsets[i] + offsets[i - 1]) / 2e9;
    const double rate = s + (e - s) * mid_s / horizon_s;
    EXPECT_NEAR(gap_s(offsets, i) * rate, 1.0, 1e-6) << "request " << i;
  }
}

TEST(RampUp, ExponentialRampOverADeadlinePlacesRequestsWhereTheCumulativeRateIsWhole) {
  const double s = 2.0, e = 50.0, horizon_s = 8.0;
  const std::vector<std::int64_t> offsets =
      arrival_offsets_until_ns(ramped(RampStrategy::exponential, s, e), 8 * kNsPerSec, 100000);
  expect_starts_at_zero_and_never_decreases(offsets);
  const double log_ratio = std::log(e / s);
  const auto lambda = [&](double t) {
    return s * horizon_s / log_ratio * (std::exp(log_ratio * t / horizon_s) - 1.0);
  };
  EXPECT_EQ(offsets.size(), static_cast<std::size_t>(std::ceil(lambda(horizon_s))));
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_NEAR(lambda(static_cast<double>(offsets[i]) / 1e9), static_cast<double>(i), 1e-6);
  }
}

// Deadline mode, Poisson: the count in each quarter of the run is the integral of the rate
// over it (62.5, 187.5, 312.5 and 437.5 for a linear ramp from 0 to 200 over 10 s).
TEST(RampUp, PoissonRampOverADeadlineFollowsTheRateInEveryQuarter) {
  const std::vector<double> expected_per_run = {62.5, 187.5, 312.5, 437.5};
  std::vector<double> observed(4, 0.0);
  const int runs = 100;
  for (int seed = 0; seed < runs; ++seed) {
    const std::vector<std::int64_t> offsets = arrival_offsets_until_ns(
        ramped(RampStrategy::linear, 0.0, 200.0, ArrivalProcess::poisson_gamma,
               static_cast<std::uint64_t>(seed)),
        10 * kNsPerSec, 100000);
    expect_starts_at_zero_and_never_decreases(offsets);
    // The request at 0 is the process's fixed first arrival; the rate accounts for the rest.
    for (std::size_t i = 1; i < offsets.size(); ++i) {
      observed[static_cast<std::size_t>(offsets[i] / (kNsPerSec * 5 / 2))] += 1.0;
    }
  }
  for (std::size_t quarter = 0; quarter < 4; ++quarter) {
    EXPECT_NEAR(observed[quarter] / (runs * expected_per_run[quarter]), 1.0, 0.05)
        << "quarter " << quarter;
  }
}

// vLLM normalises only schedules without a ramp.
TEST(RampUp, NormalisationDoesNotTouchARamp) {
  ArrivalOptions options =
      ramped(RampStrategy::linear, 5.0, 50.0, ArrivalProcess::poisson_gamma, 3);
  options.normalize_mean_rate = true;
  const std::vector<std::int64_t> normalised = arrival_offsets_ns(options, 1000);
  options.normalize_mean_rate = false;
  EXPECT_EQ(arrival_offsets_ns(options, 1000), normalised);
}

TEST(RampUp, SameSeedGivesTheSameRampedSchedule) {
  const ArrivalOptions options =
      ramped(RampStrategy::exponential, 1.0, 30.0, ArrivalProcess::poisson_gamma, 11);
  EXPECT_EQ(arrival_offsets_ns(options, 3000), arrival_offsets_ns(options, 3000));
  EXPECT_EQ(arrival_offsets_until_ns(options, 20 * kNsPerSec, 100000),
            arrival_offsets_until_ns(options, 20 * kNsPerSec, 100000));
}

TEST(RampUp, ParsesTheNamesVllmUses) {
  EXPECT_EQ(parse_ramp_strategy("linear"), RampStrategy::linear);
  EXPECT_EQ(parse_ramp_strategy("exponential"), RampStrategy::exponential);
  EXPECT_EQ(parse_ramp_strategy("Linear"), std::nullopt);
  EXPECT_EQ(parse_arrival_process("poisson"), ArrivalProcess::poisson_gamma);
  EXPECT_EQ(parse_arrival_process("constant"), ArrivalProcess::constant);
  EXPECT_EQ(parse_arrival_process("gamma"), std::nullopt);
}

}  // namespace
