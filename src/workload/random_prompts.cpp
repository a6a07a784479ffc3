#include "bench/workload/random_prompts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "random_text.hpp"

namespace bench::workload {
namespace {

// The stream of the length draws; the words keep the plain seed, so prompts with
// range_ratio 0 are what they were before lengths could vary.
constexpr std::uint64_t kLengthStream = 0x6c656e67746873ULL;  // "lengths"

void require_at_least(std::string_view field, std::int64_t value, std::int64_t minimum) {
  if (value < minimum) {
    throw std::invalid_argument("random prompts: " + std::string(field) + " must be at least " +
                                std::to_string(minimum) + ", got " + std::to_string(value));
  }
}

}  // namespace

LengthRange length_range(std::int64_t len, double range_ratio) {
  if (!(range_ratio >= 0.0 && range_ratio <= 1.0)) {
    throw std::invalid_argument("--range-ratio must be in [0, 1], got " +
                                std::to_string(range_ratio));
  }
  // vLLM: input_low = floor(len * (1 - r)), input_high = ceil(len * (1 + r)), output_low
  // raised to 1. The same double expressions give the same bounds as its Python.
  const auto scaled = static_cast<double>(len);
  const auto low = static_cast<std::int64_t>(std::floor(scaled * (1 - range_ratio)));
  const auto high = static_cast<std::int64_t>(std::ceil(scaled * (1 + range_ratio)));
  return {std::max<std::int64_t>(low, 1), std::max<std::int64_t>(high, 1)};
}

std::vector<Prompt> make_random_prompts(const RandomPromptOptions& options) {
  require_at_least("count", options.count, 0);
  require_at_least("input_len", options.input_len, 1);
  require_at_least("output_len", options.output_len, 1);
  const LengthRange inputs = length_range(options.input_len, options.range_ratio);
  const LengthRange outputs = length_range(options.output_len, options.range_ratio);

  std::mt19937_64 words(options.seed);
  std::mt19937_64 lengths = detail::engine_for(options.seed, kLengthStream);
  const auto draw = [&lengths](const LengthRange& range) {
    return range.low == range.high ? range.low
                                   : detail::draw_between(lengths, range.low, range.high);
  };
  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(options.count));
  for (std::int64_t index = 0; index < options.count; ++index) {
    Prompt prompt;
    prompt.input_len = draw(inputs);
    prompt.output_len = draw(outputs);
    // The first word is the prompt's own number, so no two prompts share a cacheable prefix.
    prompt.text = std::to_string(index);
    detail::append_random_words(words, prompt.input_len - 1, prompt.text);
    prompts.push_back(std::move(prompt));
  }
  return prompts;
}

}  // namespace bench::workload
