#pragma once
// Random draws that are the same on every platform for a seed. The standard fixes
// std::mt19937_64's output bit for bit, but leaves the algorithms of std::*_distribution to
// each standard library, so std::gamma_distribution would give other schedules with libc++
// than with libstdc++. These draws use only the engine's raw output and documented
// algorithms; what is left to the platform is the last bit of std::log/std::exp.
#include <cstdint>
#include <random>

namespace bench::schedule {

class PortableRandom {
 public:
  explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in the open interval (0, 1): 53 random bits, centred in their cell, so neither
  /// 0 (log(0)) nor 1 can come out.
  double uniform_open();

  /// Exponential with mean 1: -log(U).
  double exponential();

  /// Standard normal, by Marsaglia's polar method (one of each pair is used; the other is
  /// dropped so that a draw never depends on whether the previous call was a normal).
  double normal();

  /// Gamma with the given shape (> 0) and scale 1: mean = variance = shape. Shape 1 is the
  /// exponential; shape > 1 uses Marsaglia and Tsang (2000), "A simple method for generating
  /// gamma variables" (the method numpy uses); shape < 1 draws Gamma(shape + 1) * U^(1/shape),
  /// the boost that paper gives.
  double gamma(double shape);

 private:
  std::mt19937_64 engine_;
};

/// SplitMix64's finaliser: spreads a user seed over all 64 bits, so that the seed a stream is
/// built from (seed ^ a stream constant) gives draws unrelated to other streams of that seed.
std::uint64_t mix_seed(std::uint64_t seed);

}  // namespace bench::schedule
