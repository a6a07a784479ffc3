#pragma once
// Random prompts whose lengths are tokens, not words, once a tokenizer is given (--tokenizer):
//   token_exact_prompt  the random prompt's text, grown or cut a word at a time until the
//                       tokenizer counts exactly the length drawn, verified by encoding the very
//                       text sent (never by decoding ids and hoping they re-encode the same,
//                       which drifts: sglang#15732);
//   random_ids_prompt   --dataset random-ids: the prompt as token ids, sent as such, exact by
//                       construction.
// Both keep the random prompt's rule that a prompt begins with its own index, so no two
// prompts share a cacheable prefix.
#include <cstdint>
#include <string>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/prompt.hpp"
#include "bench/workload/random_prompts.hpp"

namespace bench::workload {

/// What turns lengths into tokens for a prompt source. The tokenizer outlives the source.
struct TokenLengths {
  const tokenizer::Tokenizer* tokenizer = nullptr;  // null: lengths are words
  // Tokens the chat template adds to every prompt, taken off each prompt's length so that the
  // server counts the drawn length in all (--input-len-includes-template); 0: content only.
  std::int64_t template_tokens = 0;
};

/// What token_exact_text makes.
struct TokenText {
  std::string text;
  // The tokenizer's count of text: the target, unless no word sequence reached it exactly (the
  // nearest below) or the tokenizer failed (-1: text is then `target` words).
  std::int64_t tokens = -1;
};

/// `first_word`, then the words of (seed, index)'s word stream (those random_prompt draws),
/// grown or cut a word at a time until the tokenizer counts exactly `target` tokens, topped up
/// with single filler words where one word more overshoots. `first_word_tokens` is the first
/// guess of what first_word costs: the search starts at target - first_word_tokens words.
TokenText token_exact_text(std::uint64_t seed, std::uint64_t index, std::string first_word,
                           std::int64_t first_word_tokens, std::int64_t target,
                           const tokenizer::Tokenizer& tokenizer);

/// random_prompt(options, index) made exactly its drawn length (less template_tokens, at least 1)
/// in tokens. client_tokens holds the count of the text as sent: the target, unless the
/// tokenizer failed (-1) or no word sequence reached the target exactly (the nearest below it,
/// which the report then shows as a mismatch). input_len stays the drawn length.
Prompt token_exact_prompt(const RandomPromptOptions& options, std::uint64_t index,
                          const TokenLengths& lengths);

/// The ids for random-ids: with a tokenizer, the encoding of a random prompt cut to its drawn
/// length; without one, the index in three ids then uniform ids in [kFirstRandomId,
/// kEndRandomId), ids every vocabulary of 30,000 or more tokens holds (Llama-2, Llama-3, Qwen).
inline constexpr std::int32_t kFirstRandomId = 100;
inline constexpr std::int32_t kEndRandomId = 30000;
Prompt random_ids_prompt(const RandomPromptOptions& options, std::uint64_t index,
                         const tokenizer::Tokenizer* tokenizer);

}  // namespace bench::workload
