#pragma once
// Internal to the workload module: portable seeded draws and the word list prompts are made
// of. Every draw uses only DrawEngine's raw output, fixed bit for bit by its constants;
// std::uniform_int_distribution and std::shuffle are left to each standard library, so they
// would give other prompts with libc++ than with libstdc++.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bench/util/splitmix64.hpp"

namespace bench::workload::detail {

/// The workload's random bits: SplitMix64 (bench/util/splitmix64.hpp), a UniformRandomBitGenerator
/// whose whole state is one word. Each prompt gets an engine of its own (random access by
/// index), so making one must cost nothing: std::mt19937_64 seeded through std::seed_seq spent
/// ~4 us filling 312 words of state per engine, two engines a prompt, on the client's core.
class DrawEngine {
 public:
  using result_type = std::uint64_t;
  explicit DrawEngine(std::uint64_t state) : state_(state) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() {
    state_ += util::kGoldenGamma;
    return util::splitmix64_mix(state_);
  }

 private:
  std::uint64_t state_;
};

// The purposes of a random prompt's draws: its lengths and its words are unrelated for one seed.
inline constexpr std::uint64_t kLengthStream = 0x6c656e67746873ULL;  // "lengths"
inline constexpr std::uint64_t kWordStream = 0x776f726473ULL;        // "words"

/// Uniform in [0, bound), bound >= 1. Draws below 2^64 mod bound are rejected so every value
/// is equally likely.
std::uint64_t draw_below(DrawEngine& engine, std::uint64_t bound);

/// Uniform in [low, high], both included (low <= high).
std::int64_t draw_between(DrawEngine& engine, std::int64_t low, std::int64_t high);

/// Appends `count` random common words to `out`, each preceded by one space.
void append_random_words(DrawEngine& engine, std::int64_t count, std::string& out);

/// Fisher-Yates (Knuth's Algorithm P) on draw_below: the same order for a seed everywhere.
template <typename T>
void shuffle_in_place(std::vector<T>& items, DrawEngine& engine) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(draw_below(engine, i));
    std::swap(items[i - 1], items[j]);
  }
}

/// An engine for one purpose (`stream`) of a user seed, so that, say, lengths and words drawn
/// for the same --seed are unrelated.
DrawEngine engine_for(std::uint64_t seed, std::uint64_t stream);

/// The seed of stream `stream` of a user seed (prompt_source.hpp's streams): stream 0 keeps the
/// seed itself, so a single run's prompts are those of that seed; every other stream gets a
/// seed unrelated to it (SplitMix64's finaliser).
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream);

/// An engine for one item (`index`) of one purpose: random access, so item i is the same
/// whichever items were drawn before it, in whatever order or thread.
DrawEngine engine_for(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

}  // namespace bench::workload::detail
