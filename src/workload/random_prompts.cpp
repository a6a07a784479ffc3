#include "bench/workload/random_prompts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "random_text.hpp"

namespace bench::workload {
namespace {

void require_at_least(std::string_view field, std::int64_t value, std::int64_t minimum) {
  if (value < minimum) {
    throw std::invalid_argument("random prompts: " + std::string(field) + " must be at least " +
                                std::to_string(minimum) + ", got " + std::to_string(value));
  }
}

}  // namespace

void require_valid(const RandomPromptOptions& options) {
  require_at_least("count", options.count, 0);
  require_at_least("input_len", options.input_len, 1);
  require_at_least("output_len", options.output_len, 1);
  // Each throws for a ratio out of range.
  length_range(options.input_len, options.range_ratio, options.range_rule);
  length_range(options.output_len, options.output_range_ratio.value_or(options.range_ratio),
               options.range_rule);
}

Prompt random_prompt(const RandomPromptOptions& options, std::uint64_t index) {
  Prompt prompt;
  const LengthRange inputs =
      length_range(options.input_len, options.range_ratio, options.range_rule);
  const LengthRange outputs =
      length_range(options.output_len, options.output_range_ratio.value_or(options.range_ratio),
                   options.range_rule);
  if (inputs.low != inputs.high || outputs.low != outputs.high) {
    detail::DrawEngine lengths = detail::engine_for(options.seed, detail::kLengthStream, index);
    prompt.input_len = detail::draw_between(lengths, inputs.low, inputs.high);
    prompt.output_len = detail::draw_between(lengths, outputs.low, outputs.high);
  } else {
    prompt.input_len = inputs.low;
    prompt.output_len = outputs.low;
  }
  // The first word is the prompt's own number, so no two prompts share a cacheable prefix;
  // the words after it are drawn for this index alone.
  detail::DrawEngine words = detail::engine_for(options.seed, detail::kWordStream, index);
  prompt.text = std::to_string(index);
  detail::append_random_words(words, prompt.input_len - 1, prompt.text);
  return prompt;
}

std::vector<Prompt> make_random_prompts(const RandomPromptOptions& options) {
  require_valid(options);
  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(options.count));
  for (std::int64_t index = 0; index < options.count; ++index) {
    prompts.push_back(random_prompt(options, static_cast<std::uint64_t>(index)));
  }
  return prompts;
}

}  // namespace bench::workload
