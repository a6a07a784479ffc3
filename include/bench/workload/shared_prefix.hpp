#pragma once
// The "shared-prefix" dataset, SGLang's generated-shared-prefix
// (python/sglang/benchmark/datasets/generated_shared_prefix.py): groups of requests that share
// a long system prompt, to measure a server's prefix cache. Each group has its own prefix of
// prefix_len words; each request adds its own question of question_len words. Like SGLang's,
// the requests are shuffled across groups (a cache must hold several prefixes at once).
//
// Sent as: /v1/completions "prompt" = prefix + "\n\n" + question (SGLang's join);
// /v1/chat/completions = [{"role": "system", "content": prefix},
//                          {"role": "user", "content": question}] (see prompt.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "bench/workload/prompt.hpp"

namespace bench::workload {

// Defaults are SGLang's --gsp-* defaults, in words instead of tokens.
struct SharedPrefixOptions {
  std::int64_t groups = 64;               // --prefix-groups (SGLang --gsp-num-groups)
  std::int64_t prefix_len = 2048;         // --prefix-len, words (--gsp-system-prompt-len)
  std::int64_t questions_per_group = 16;  // --questions-per-group (--gsp-prompts-per-group)
  std::int64_t question_len = 128;        // --input-len, words (--gsp-question-len)
  std::int64_t output_len = 256;          // --output-len (--gsp-output-len)
  double range_ratio = 0.0;               // --range-ratio for question and output lengths, as
                                          // random_prompts.hpp's length_range; prefixes are
                                          // always exactly prefix_len
  std::uint64_t seed = 0;                 // same seed, same prefixes, questions and order
};

/// The groups' prefixes, made once (groups x prefix_len words, whatever the run's length), and
/// every request's prompt on demand. Which group a request belongs to follows one seeded
/// shuffle of a round of groups x questions_per_group positions, repeated; questions are new
/// for every request of every stream. Each prefix starts with a word naming its group and each
/// question with its request's number, so groups share nothing and questions share nothing
/// beyond their group's prefix.
class SharedPrefixPrompts {
 public:
  /// Throws std::invalid_argument naming the flag for a value below 1 or a range ratio out of
  /// range.
  explicit SharedPrefixPrompts(const SharedPrefixOptions& options);

  /// Request `request` of stream `stream` (prompt_source.hpp): Prompt::system_text is the
  /// prefix, text the question, prefix_group the group, input_len prefix_len + the question's
  /// words. Safe from several threads at once.
  Prompt prompt(std::uint64_t stream, std::uint64_t request) const;

  /// Requests in one round: every group questions_per_group times.
  std::size_t round() const { return group_order_.size(); }

 private:
  SharedPrefixOptions options_;
  std::vector<std::string> prefixes_;       // one per group
  std::vector<std::uint32_t> group_order_;  // position in a round -> group
};

}  // namespace bench::workload
