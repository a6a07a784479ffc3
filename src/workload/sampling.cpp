#include "bench/workload/sampling.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kShuffleStream = 0x73687566666c65ULL;     // "shuffle"
constexpr std::uint64_t kOversampleStream = 0x6f7665727361ULL;    // "oversa"

}  // namespace

std::vector<Prompt> fit_to_count(std::vector<Prompt> prompts, std::size_t count,
                                 std::uint64_t seed) {
  if (prompts.size() >= count) {
    prompts.resize(count);
    return prompts;
  }
  if (prompts.empty()) {
    throw std::invalid_argument("no prompts to make " + std::to_string(count) +
                                " requests from");
  }
  const std::size_t distinct = prompts.size();
  std::mt19937_64 engine = detail::engine_for(seed, kOversampleStream);
  prompts.reserve(count);
  while (prompts.size() < count) {
    prompts.push_back(prompts[static_cast<std::size_t>(detail::draw_below(engine, distinct))]);
  }
  return prompts;
}

void shuffle_prompts(std::vector<Prompt>& prompts, std::uint64_t seed) {
  std::mt19937_64 engine = detail::engine_for(seed, kShuffleStream);
  detail::shuffle_in_place(prompts, engine);
}

}  // namespace bench::workload
