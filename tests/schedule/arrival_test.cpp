#include "bench/schedule/arrival.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/util/clock.hpp"

namespace {

using bench::schedule::arrival_offsets_ns;
using bench::schedule::arrival_offsets_until_ns;
using bench::schedule::ArrivalOptions;
using bench::schedule::ArrivalProcess;
using bench::schedule::kUnlimitedRate;
using bench::schedule::RampStrategy;
using bench::schedule::sends_all_at_once;

using bench::kNsPerSec;

ArrivalOptions poisson(double rate_per_s, double burstiness = 1.0, std::uint64_t seed = 42,
                       bool normalize = true) {
  ArrivalOptions options;
  options.rate_per_s = rate_per_s;
  options.burstiness = burstiness;
  options.seed = seed;
  options.normalize_mean_rate = normalize;
  return options;
}

ArrivalOptions constant(double rate_per_s) {
  ArrivalOptions options;
  options.rate_per_s = rate_per_s;
  options.process = ArrivalProcess::constant;
  return options;
}

std::vector<double> gaps_s(const std::vector<std::int64_t>& offsets) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    gaps.push_back(static_cast<double>(offsets[i] - offsets[i - 1]) / 1e9);
  }
  return gaps;
}

double mean_of(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

double coefficient_of_variation(const std::vector<double>& values) {
  const double mean = mean_of(values);
  double sum_sq = 0;
  for (double value : values) sum_sq += (value - mean) * (value - mean);
  return std::sqrt(sum_sq / static_cast<double>(values.size())) / mean;
}

std::string invalid_argument_message(const ArrivalOptions& options) {
  try {
    arrival_offsets_ns(options, 10);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Arrival, SameSeedGivesIdenticalOffsetsAcrossCalls) {
  for (double burstiness : {0.3, 1.0, 4.0}) {
    const ArrivalOptions options = poisson(25.0, burstiness, 1234);
    EXPECT_EQ(arrival_offsets_ns(options, 5000), arrival_offsets_ns(options, 5000));
    EXPECT_EQ(arrival_offsets_until_ns(options, 30 * kNsPerSec, 100000),
              arrival_offsets_until_ns(options, 30 * kNsPerSec, 100000));
  }
}

// Every offset but the first (0) and, normalised, the last ((N - 1) / R) depends on the seed.
TEST(Arrival, DifferentSeedsGiveDifferentOffsets) {
  for (bool normalize : {false, true}) {
    const std::vector<std::int64_t> a = arrival_offsets_ns(poisson(10.0, 1.0, 1, normalize), 100);
    const std::vector<std::int64_t> b = arrival_offsets_ns(poisson(10.0, 1.0, 2, normalize), 100);
    ASSERT_EQ(a.size(), b.size());
    int equal = 0;
    for (std::size_t i = 1; i + 1 < a.size(); ++i) equal += a[i] == b[i] ? 1 : 0;
    EXPECT_EQ(equal, 0) << "normalize " << normalize;
    EXPECT_EQ(a.back() == b.back(), normalize);
  }
}

TEST(Arrival, FirstOffsetIsZeroAndOffsetsNeverDecrease) {
  for (double burstiness : {0.05, 0.5, 1.0, 3.0}) {
    for (bool normalize : {false, true}) {
      const std::vector<std::int64_t> offsets =
          arrival_offsets_ns(poisson(100.0, burstiness, 9, normalize), 2000);
      ASSERT_EQ(offsets.size(), 2000u);
      EXPECT_EQ(offsets.front(), 0);
      for (std::size_t i = 1; i < offsets.size(); ++i) ASSERT_LE(offsets[i - 1], offsets[i]);
    }
  }
}

// The raw process (no normalisation): the gaps' sample mean is 1/R within 5%.
TEST(Arrival, MeanGapIsWithinFivePercentOfOneOverRate) {
  for (double burstiness : {0.5, 1.0, 2.0, 4.0}) {
    for (double rate : {2.0, 50.0, 1000.0}) {
      const std::vector<double> gaps =
          gaps_s(arrival_offsets_ns(poisson(rate, burstiness, 77, false), 10001));
      ASSERT_EQ(gaps.size(), 10000u);
      EXPECT_NEAR(mean_of(gaps) * rate, 1.0, 0.05) << "B " << burstiness << " R " << rate;
    }
  }
}

// vLLM's normalisation: N requests span exactly (N - 1) / R whatever the seed.
TEST(Arrival, NormalisedScheduleSpansExactlyNMinusOneOverRate) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<std::int64_t> offsets = arrival_offsets_ns(poisson(8.0, 0.5, seed), 801);
    EXPECT_NEAR(static_cast<double>(offsets.back()), 100.0 * 1e9, 1.0) << "seed " << seed;
  }
}

// Gamma(B): coefficient of variation 1/sqrt(B); normalisation scales every gap alike and
// must not change it.
TEST(Arrival, GapCoefficientOfVariationIsOneOverSqrtBurstiness) {
  for (double burstiness : {0.25, 0.5, 1.0, 2.0, 4.0, 9.0}) {
    for (bool normalize : {false, true}) {
      const std::vector<double> gaps =
          gaps_s(arrival_offsets_ns(poisson(20.0, burstiness, 5, normalize), 10001));
      EXPECT_NEAR(coefficient_of_variation(gaps) * std::sqrt(burstiness), 1.0, 0.10)
          << "B " << burstiness << " normalize " << normalize;
    }
  }
}

// Burstiness 1 is a Poisson process: P(gap > 1/R) = e^-1.
TEST(Arrival, BurstinessOneGivesExponentialGaps) {
  const double rate = 40.0;
  const std::vector<double> gaps = gaps_s(arrival_offsets_ns(poisson(rate, 1.0, 3, false), 20001));
  int longer = 0;
  for (double gap : gaps) longer += gap > 1.0 / rate ? 1 : 0;
  EXPECT_NEAR(longer / static_cast<double>(gaps.size()), std::exp(-1.0), 0.015);
}

TEST(Arrival, ConstantRateGivesExactGaps) {
  const std::vector<std::int64_t> eight = arrival_offsets_ns(constant(8.0), 1000);
  for (std::size_t i = 0; i < eight.size(); ++i) {
    ASSERT_EQ(eight[i], static_cast<std::int64_t>(i) * 125'000'000) << "request " << i;
  }
  // 1/3 s is no whole number of nanoseconds: each offset is rounded on its own, never summed.
  const std::vector<std::int64_t> three = arrival_offsets_ns(constant(3.0), 3001);
  for (std::size_t i = 0; i < three.size(); ++i) {
    ASSERT_NEAR(static_cast<double>(three[i]), static_cast<double>(i) * 1e9 / 3.0, 0.5001);
  }
  EXPECT_EQ(three.back(), 1000 * kNsPerSec);
}

// vLLM: "when burstiness tends to infinity, the delay time becomes constant".
TEST(Arrival, InfiniteBurstinessIsTheConstantProcess) {
  const ArrivalOptions options = poisson(7.0, std::numeric_limits<double>::infinity());
  EXPECT_EQ(arrival_offsets_ns(options, 500), arrival_offsets_ns(constant(7.0), 500));
}

TEST(Arrival, InfiniteRateSendsEveryRequestAtZero) {
  const ArrivalOptions options;  // rate inf is the default, as in vLLM and SGLang
  EXPECT_TRUE(sends_all_at_once(options));
  EXPECT_EQ(arrival_offsets_ns(options, 300), std::vector<std::int64_t>(300, 0));
  EXPECT_EQ(arrival_offsets_until_ns(options, 3 * kNsPerSec, 40), std::vector<std::int64_t>(40, 0));
  EXPECT_FALSE(sends_all_at_once(poisson(1.0)));
}

TEST(Arrival, ZeroRequestsOrZeroDeadlineGiveAnEmptySchedule) {
  EXPECT_TRUE(arrival_offsets_ns(poisson(5.0), 0).empty());
  EXPECT_TRUE(arrival_offsets_until_ns(poisson(5.0), 0, 100).empty());
  EXPECT_TRUE(arrival_offsets_until_ns(poisson(5.0), kNsPerSec, 0).empty());
}

TEST(Arrival, DeadlineOfThreeSecondsAtConstantRateGivesRateTimesThree) {
  for (double rate : {1.0, 2.5, 10.0, 33.3, 100.0, 1000.0}) {
    const std::vector<std::int64_t> offsets =
        arrival_offsets_until_ns(constant(rate), 3 * kNsPerSec, 1'000'000);
    EXPECT_NEAR(static_cast<double>(offsets.size()), rate * 3.0, 1.0) << "rate " << rate;
    ASSERT_FALSE(offsets.empty());
    EXPECT_LT(offsets.back(), 3 * kNsPerSec);
  }
}

// Normalised (the default), a gamma process sends the constant rate's count before the
// deadline, whatever the seed and burstiness.
TEST(Arrival, DeadlineOfThreeSecondsAtPoissonRateGivesRateTimesThree) {
  for (double burstiness : {0.2, 1.0, 5.0}) {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
      for (double rate : {1.0, 10.0, 33.3, 200.0}) {
        const std::vector<std::int64_t> offsets =
            arrival_offsets_until_ns(poisson(rate, burstiness, seed), 3 * kNsPerSec, 1'000'000);
        EXPECT_NEAR(static_cast<double>(offsets.size()), rate * 3.0, 1.0)
            << "rate " << rate << " B " << burstiness << " seed " << seed;
        EXPECT_LT(offsets.back(), 3 * kNsPerSec);
      }
    }
  }
}

// The raw Poisson process, with its first arrival at 0, starts 1 + Poisson(R T) requests in
// [0, T): the mean over seeds is R T + 1.
TEST(Arrival, RawPoissonCountBeforeDeadlineAveragesRateTimesDurationPlusOne) {
  const double rate = 10.0;
  double total = 0;
  const int seeds = 1000;
  for (int seed = 0; seed < seeds; ++seed) {
    total += static_cast<double>(
        arrival_offsets_until_ns(poisson(rate, 1.0, static_cast<std::uint64_t>(seed), false),
                                 3 * kNsPerSec, 1'000'000)
            .size());
  }
  EXPECT_NEAR(total / seeds, rate * 3.0 + 1.0, 0.5);
}

TEST(Arrival, DeadlineIsExclusive) {
  EXPECT_EQ(arrival_offsets_until_ns(constant(1.0), 3 * kNsPerSec, 100),
            (std::vector<std::int64_t>{0, kNsPerSec, 2 * kNsPerSec}));
  EXPECT_EQ(arrival_offsets_until_ns(constant(1.0), 3 * kNsPerSec + 1, 100).size(), 4u);
}

TEST(Arrival, DeadlineScheduleStopsAtMaxCount) {
  EXPECT_EQ(arrival_offsets_until_ns(constant(100.0), 60 * kNsPerSec, 25).size(), 25u);
  EXPECT_EQ(arrival_offsets_until_ns(poisson(100.0), 60 * kNsPerSec, 25).size(), 25u);
  EXPECT_EQ(arrival_offsets_until_ns(poisson(100.0, 1.0, 42, false), 60 * kNsPerSec, 25).size(),
            25u);
}

// Without normalisation a deadline cuts the very schedule a count would give.
TEST(Arrival, RawDeadlineScheduleIsAPrefixOfTheCountSchedule) {
  const ArrivalOptions options = poisson(50.0, 0.7, 8, false);
  const std::vector<std::int64_t> until = arrival_offsets_until_ns(options, 5 * kNsPerSec, 100000);
  const std::vector<std::int64_t> counted = arrival_offsets_ns(options, until.size() + 1);
  ASSERT_GT(until.size(), 100u);
  EXPECT_EQ(std::vector<std::int64_t>(counted.begin(), counted.end() - 1), until);
  EXPECT_GE(counted.back(), 5 * kNsPerSec);
}

TEST(Arrival, RejectsARateThatIsNotPositiveNamingTheFlag) {
  for (double rate : {0.0, -1.0, std::nan("")}) {
    EXPECT_NE(invalid_argument_message(poisson(rate)).find("--request-rate"), std::string::npos)
        << rate;
  }
}

TEST(Arrival, RejectsABurstinessThatIsNotPositiveNamingTheFlag) {
  for (double burstiness : {0.0, -2.0, std::nan("")}) {
    EXPECT_NE(invalid_argument_message(poisson(1.0, burstiness)).find("--burstiness"),
              std::string::npos)
        << burstiness;
  }
}

TEST(Arrival, RejectsANegativeDeadlineNamingDuration) {
  try {
    arrival_offsets_until_ns(poisson(1.0), -1, 10);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--duration"), std::string::npos);
  }
}

TEST(Arrival, RejectsAScheduleBeyondInt64NanosecondsNamingTheRate) {
  EXPECT_NE(invalid_argument_message(constant(1e-12)).find("--request-rate"), std::string::npos);
}

TEST(Arrival, RampRejectsBadValuesNamingTheFlag) {
  const auto ramp = [](RampStrategy strategy, double start, double end, double rate) {
    ArrivalOptions options;
    options.rate_per_s = rate;
    options.ramp = {strategy, start, end};
    return invalid_argument_message(options);
  };
  const double inf = kUnlimitedRate;
  EXPECT_NE(ramp(RampStrategy::linear, 1, 5, 3.0).find("--request-rate"), std::string::npos);
  EXPECT_NE(ramp(RampStrategy::linear, -1, 5, inf).find("--ramp-up-start-rps"), std::string::npos);
  EXPECT_NE(ramp(RampStrategy::linear, inf, inf, inf).find("--ramp-up-start-rps"),
            std::string::npos);
  EXPECT_NE(ramp(RampStrategy::linear, 1, std::nan(""), inf).find("--ramp-up-end-rps"),
            std::string::npos);
  EXPECT_NE(ramp(RampStrategy::linear, 0, 0, inf).find("--ramp-up-end-rps"), std::string::npos);
  EXPECT_NE(ramp(RampStrategy::linear, 9, 5, inf).find("must not exceed"), std::string::npos);
  EXPECT_NE(ramp(RampStrategy::exponential, 0, 5, inf).find("--ramp-up-start-rps"),
            std::string::npos);
  EXPECT_EQ(ramp(RampStrategy::linear, 0, 5, inf), "");
  EXPECT_EQ(ramp(RampStrategy::exponential, 1, 1, inf), "");
}

// The stream behind both: one offset at a time, with what the whole needs known up front.
TEST(ArrivalStream, KnowsItsSizeAndLastOffsetBeforeItsFirstDraw) {
  const ArrivalOptions raw = poisson(50, 0.7, 9, /*normalize=*/false);
  const std::vector<std::int64_t> whole = arrival_offsets_until_ns(raw, 3 * kNsPerSec, SIZE_MAX);
  const auto stream = bench::schedule::ArrivalStream::until(raw, 3 * kNsPerSec, SIZE_MAX);
  ASSERT_FALSE(whole.empty());
  EXPECT_EQ(stream.size(), whole.size());
  EXPECT_EQ(stream.last_ns(), whole.back());
}

TEST(ArrivalStream, ACopyDrawsOnFromWhereTheOriginalStood) {
  auto stream = bench::schedule::ArrivalStream::of_count(poisson(20), 40);
  const std::vector<std::int64_t> whole = arrival_offsets_ns(poisson(20), 40);
  for (std::size_t i = 0; i < 10; ++i) ASSERT_EQ(stream.next(), whole[i]);
  auto copy = stream;
  for (std::size_t i = 10; i < whole.size(); ++i) {
    ASSERT_EQ(stream.next(), whole[i]);
    ASSERT_EQ(copy.next(), whole[i]);
  }
  EXPECT_FALSE(stream.next().has_value());
  EXPECT_FALSE(copy.next().has_value());
}

TEST(ArrivalStream, RefusesAScheduleTooLongBeforeItsFirstOffset) {
  EXPECT_THROW(bench::schedule::ArrivalStream::of_count(poisson(1e-9), 100), std::invalid_argument);
}

}  // namespace
