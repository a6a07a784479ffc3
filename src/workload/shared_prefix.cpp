#include "bench/workload/shared_prefix.hpp"

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/workload/random_prompts.hpp"
#include "bench/workload/sampling.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kTextStream = 0x707265666978ULL;     // "prefix"
constexpr std::uint64_t kLengthStream = 0x6c656e67746873ULL;  // "lengths"

void require_at_least_one(std::string_view flag, std::int64_t value) {
  if (value < 1) {
    throw std::invalid_argument(std::string(flag) + " must be at least 1, got " +
                                std::to_string(value));
  }
}

}  // namespace

std::vector<Prompt> make_shared_prefix_prompts(const SharedPrefixOptions& options) {
  require_at_least_one("--prefix-groups", options.groups);
  require_at_least_one("--prefix-len", options.prefix_len);
  require_at_least_one("--questions-per-group", options.questions_per_group);
  require_at_least_one("--input-len", options.question_len);
  require_at_least_one("--output-len", options.output_len);
  const LengthRange questions = length_range(options.question_len, options.range_ratio);
  const LengthRange outputs = length_range(options.output_len, options.range_ratio);

  std::mt19937_64 words = detail::engine_for(options.seed, kTextStream);
  std::mt19937_64 lengths = detail::engine_for(options.seed, kLengthStream);
  const auto draw = [&lengths](const LengthRange& range) {
    return range.low == range.high ? range.low
                                   : detail::draw_between(lengths, range.low, range.high);
  };

  std::vector<std::string> prefixes;
  prefixes.reserve(static_cast<std::size_t>(options.groups));
  for (std::int64_t group = 0; group < options.groups; ++group) {
    std::string prefix = "group" + std::to_string(group);
    detail::append_random_words(words, options.prefix_len - 1, prefix);
    prefixes.push_back(std::move(prefix));
  }

  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(options.groups * options.questions_per_group));
  for (std::int64_t group = 0; group < options.groups; ++group) {
    for (std::int64_t question = 0; question < options.questions_per_group; ++question) {
      Prompt prompt;
      const std::int64_t question_len = draw(questions);
      prompt.output_len = draw(outputs);
      prompt.text = std::to_string(static_cast<std::int64_t>(prompts.size()));
      detail::append_random_words(words, question_len - 1, prompt.text);
      prompt.system_text = prefixes[static_cast<std::size_t>(group)];
      prompt.input_len = options.prefix_len + question_len;
      prompt.prefix_group = group;
      prompts.push_back(std::move(prompt));
    }
  }
  if (!options.ordered) shuffle_prompts(prompts, options.seed);
  return prompts;
}

}  // namespace bench::workload
