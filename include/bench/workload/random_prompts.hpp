#pragma once
// The "random" workload: prompts of a target input length built from common English words,
// deterministic for a seed. Without a tokenizer bench cannot know a real server's token count
// of a prompt; words are the closest cheap proxy (most common words are one token in the
// Llama/GPT tokenizers), and the report shows the server's own prompt_tokens beside the
// length asked for.
#include <cstdint>
#include <string>
#include <vector>

namespace bench::workload {

/// One request's worth of input.
struct Prompt {
  std::string text;              // the prompt (completions) or the user message (chat)
  std::int64_t input_len = 0;    // the length asked for, in words (our stand-in for tokens)
  std::int64_t output_len = 0;   // max_tokens to request
};

struct RandomPromptOptions {
  std::int64_t count = 0;         // number of prompts
  std::int64_t input_len = 0;     // words per prompt (>= 1)
  std::int64_t output_len = 0;    // max_tokens per request (>= 1)
  std::uint64_t seed = 0;         // same seed, same prompts
};

/// Builds `count` prompts of exactly `input_len` space-separated words each. Each prompt starts
/// with a distinct number so no two prompts share a prefix beyond the first word (prefix caches
/// on the server must not make a random workload look faster than it is).
std::vector<Prompt> make_random_prompts(const RandomPromptOptions& options);

}  // namespace bench::workload
