#include "bench/schedule/portable_random.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::schedule::mix_seed;
using bench::schedule::PortableRandom;

struct Moments {
  double mean = 0;
  double variance = 0;  // population
};

template <typename Draw>
Moments moments_of(int n, Draw draw) {
  std::vector<double> values(static_cast<std::size_t>(n));
  double sum = 0;
  for (double& value : values) {
    value = draw();
    sum += value;
  }
  Moments m;
  m.mean = sum / n;
  for (double value : values) m.variance += (value - m.mean) * (value - m.mean);
  m.variance /= n;
  return m;
}

// [rand.predef]: the 10000th output of a default-constructed std::mt19937_64 is
// 9981545732273789042. uniform_open must be that raw output's top 53 bits, centred.
TEST(PortableRandom, UniformIsTheStandardEnginesTop53BitsCentred) {
  PortableRandom random(5489u);  // std::mt19937_64's default seed
  for (int i = 1; i < 10000; ++i) random.uniform_open();
  const double expected =
      (static_cast<double>(9981545732273789042ULL >> 11) + 0.5) / 9007199254740992.0;
  EXPECT_EQ(random.uniform_open(), expected);
}

TEST(PortableRandom, UniformStaysStrictlyInsideZeroAndOne) {
  PortableRandom random(7);
  const Moments m = moments_of(100000, [&] {
    const double u = random.uniform_open();
    EXPECT_GT(u, 0.0);
    EXPECT_LT(u, 1.0);
    return u;
  });
  EXPECT_NEAR(m.mean, 0.5, 0.005);
  EXPECT_NEAR(m.variance, 1.0 / 12.0, 0.002);
}

TEST(PortableRandom, SameSeedGivesTheSameDraws) {
  PortableRandom a(42);
  PortableRandom b(42);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.gamma(0.7), b.gamma(0.7)) << "draw " << i;
}

TEST(PortableRandom, DifferentSeedsGiveDifferentDraws) {
  PortableRandom a(1);
  PortableRandom b(2);
  int equal = 0;
  for (int i = 0; i < 100; ++i) equal += a.exponential() == b.exponential() ? 1 : 0;
  EXPECT_EQ(equal, 0);
}

TEST(PortableRandom, ExponentialHasMeanAndVarianceOne) {
  PortableRandom random(11);
  const Moments m = moments_of(200000, [&] { return random.exponential(); });
  EXPECT_NEAR(m.mean, 1.0, 0.01);
  EXPECT_NEAR(m.variance, 1.0, 0.03);
}

TEST(PortableRandom, NormalHasMeanZeroAndVarianceOne) {
  PortableRandom random(13);
  const Moments m = moments_of(200000, [&] { return random.normal(); });
  EXPECT_NEAR(m.mean, 0.0, 0.01);
  EXPECT_NEAR(m.variance, 1.0, 0.02);
}

// Gamma(k, 1): mean k, variance k, for shapes on both sides of 1 (two algorithms).
TEST(PortableRandom, GammaHasMeanAndVarianceEqualToItsShape) {
  for (double shape : {0.1, 0.3, 0.5, 0.9, 1.0, 1.5, 2.0, 7.5, 100.0}) {
    PortableRandom random(17);
    const Moments m = moments_of(200000, [&] { return random.gamma(shape); });
    EXPECT_NEAR(m.mean / shape, 1.0, 0.02) << "shape " << shape;
    EXPECT_NEAR(m.variance / shape, 1.0, 0.06) << "shape " << shape;
  }
}

TEST(PortableRandom, GammaIsNeverNegative) {
  PortableRandom random(19);
  for (double shape : {0.05, 0.5, 3.0}) {
    for (int i = 0; i < 20000; ++i) ASSERT_GE(random.gamma(shape), 0.0);
  }
}

// SplitMix64 seeded with 0 first outputs 0xe220a8397b1dcdaf (Steele, Lea, Flood 2014; the
// reference xoshiro seeding code): mix_seed(s) is that generator's output for state s.
TEST(PortableRandom, MixSeedIsSplitMix64) {
  EXPECT_EQ(mix_seed(0), 0xe220a8397b1dcdafULL);
  EXPECT_NE(mix_seed(1), mix_seed(2));
}

}  // namespace
