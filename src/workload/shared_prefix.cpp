#include "bench/workload/shared_prefix.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/workload/random_prompts.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kPrefixStream = 0x707265666978ULL;  // "prefix"
constexpr std::uint64_t kOrderStream = 0x6f72646572ULL;     // "order"
constexpr std::uint64_t kQuestionStream = 0x7175657374ULL;  // "quest"

void require_at_least_one(std::string_view flag, std::int64_t value) {
  if (value < 1) {
    throw std::invalid_argument(std::string(flag) + " must be at least 1, got " +
                                std::to_string(value));
  }
}

}  // namespace

SharedPrefixPrompts::SharedPrefixPrompts(const SharedPrefixOptions& options) : options_(options) {
  require_at_least_one("--prefix-groups", options.groups);
  require_at_least_one("--prefix-len", options.prefix_len);
  require_at_least_one("--questions-per-group", options.questions_per_group);
  require_at_least_one("--input-len", options.question_len);
  require_at_least_one("--output-len", options.output_len);
  require_valid(RandomPromptOptions{0, options.question_len, options.output_len, options.seed,
                                    options.range_ratio});  // the range ratio

  detail::DrawEngine words = detail::engine_for(options.seed, kPrefixStream);
  prefixes_.reserve(static_cast<std::size_t>(options.groups));
  for (std::int64_t group = 0; group < options.groups; ++group) {
    std::string prefix = "group" + std::to_string(group);
    detail::append_random_words(words, options.prefix_len - 1, prefix);
    prefixes_.push_back(std::move(prefix));
  }
  const auto questions = static_cast<std::size_t>(options.questions_per_group);
  group_order_.resize(static_cast<std::size_t>(options.groups) * questions);
  for (std::size_t position = 0; position < group_order_.size(); ++position) {
    group_order_[position] = static_cast<std::uint32_t>(position / questions);
  }
  detail::DrawEngine order = detail::engine_for(options.seed, kOrderStream);
  detail::shuffle_in_place(group_order_, order);
}

Prompt SharedPrefixPrompts::prompt(std::uint64_t stream, std::uint64_t request) const {
  const std::uint32_t group = group_order_[request % group_order_.size()];
  const RandomPromptOptions question{0, options_.question_len, options_.output_len,
                                     detail::stream_seed(options_.seed ^ kQuestionStream, stream),
                                     options_.range_ratio};
  Prompt prompt = random_prompt(question, request);
  prompt.system_text = prefixes_[group];
  prompt.system_len = options_.prefix_len;
  prompt.input_len += options_.prefix_len;
  prompt.prefix_group = group;
  return prompt;
}

}  // namespace bench::workload
