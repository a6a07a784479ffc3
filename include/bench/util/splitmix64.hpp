#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
// Vigna's reference splitmix64.c): the one copy of its constants, for every seed bench derives
// from a user's seed (schedule streams, prompt streams).
#include <cstdint>

namespace bench::util {

inline constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;  // SplitMix64's increment

/// SplitMix64's finaliser: spreads the bits of `z` over all 64, so nearby inputs give
/// unrelated outputs.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The generator's output for state `state`: the finaliser of state + the golden gamma.
constexpr std::uint64_t splitmix64(std::uint64_t state) {
  return splitmix64_mix(state + kGoldenGamma);
}

}  // namespace bench::util
