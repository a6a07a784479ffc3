#pragma once
// The "random" workload: prompts of a target input length built from common English words,
// deterministic for a seed. Without a tokenizer bench cannot know a real server's token count
// of a prompt; words are the closest cheap proxy (most common words are one token in the
// Llama/GPT tokenizers), and the report shows the server's own prompt_tokens beside the
// length asked for.
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/workload/length_range.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::workload {

struct RandomPromptOptions {
  std::int64_t count = 0;       // number of prompts
  std::int64_t input_len = 0;   // words per prompt (>= 1)
  std::int64_t output_len = 0;  // max_tokens per request (>= 1)
  std::uint64_t seed = 0;       // same seed, same prompts
  double range_ratio = 0.0;     // --range-ratio r in [0, 1]: lengths uniform around the
                                // targets (length_range); 0 = exactly input_len/output_len
  // The output length's own ratio (vLLM's --random-range-ratio '{"input":a,"output":b}');
  // nullopt: range_ratio's.
  std::optional<double> output_range_ratio = std::nullopt;
  RangeRule range_rule = RangeRule::around;
};

/// Throws std::invalid_argument naming the field for a value out of range.
void require_valid(const RandomPromptOptions& options);

/// Prompt number `index` of the workload (options.count is not read): the same for a seed and
/// index whatever else was drawn, so prompts can be made one at a time, on demand, by any
/// thread. `index` is also its first word. Options must have passed require_valid.
Prompt random_prompt(const RandomPromptOptions& options, std::uint64_t index);

/// Builds `count` prompts of space-separated words: exactly `input_len` words each with
/// range_ratio 0, otherwise a length drawn per prompt from length_range (and output_len the
/// same way). Each prompt starts with a distinct number so no two prompts share a prefix
/// beyond the first word (prefix caches on the server must not make a random workload look
/// faster than it is). The words for a seed do not depend on range_ratio's draws.
/// Throws std::invalid_argument naming the field for a value out of range.
std::vector<Prompt> make_random_prompts(const RandomPromptOptions& options);

}  // namespace bench::workload
