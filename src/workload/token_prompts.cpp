#include "bench/workload/token_prompts.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "random_text.hpp"

namespace bench::workload {

namespace {

using tokenizer::TokenId;

constexpr std::uint64_t kFillerStream = 0x66696c6c6572ULL;  // "filler"
// Counts tried per prompt at most: a few to find the word count, then single words to fill.
constexpr int kMaxAttempts = 64;

// The first word, then the first `words` words of (seed, index)'s word stream: a prefix of
// the text random_prompt makes (its first word the index), so more words only ever append.
class WordText {
 public:
  WordText(std::uint64_t seed, std::uint64_t index, std::string first_word)
      : engine_(detail::engine_for(seed, detail::kWordStream, index)),
        prefix_(std::move(first_word)),
        first_bytes_(prefix_.size()) {}
  std::string with_words(std::int64_t words) {
    while (static_cast<std::int64_t>(ends_.size()) < words) {
      detail::append_random_words(engine_, 1, prefix_);
      ends_.push_back(prefix_.size());
    }
    return prefix_.substr(0, words <= 0 ? first_bytes_ : ends_[words - 1]);
  }

 private:
  detail::DrawEngine engine_;
  std::string prefix_;             // the first word and every word drawn so far
  std::size_t first_bytes_;        // the first word's bytes
  std::vector<std::size_t> ends_;  // ends_[k]: prefix_'s length with k + 1 words
};

// `text` grown by single words, each kept while the count stays at most `target`.
std::int64_t fill_to(std::string& text, std::int64_t count, std::int64_t target,
                     detail::DrawEngine& filler, const tokenizer::Tokenizer& tokenizer,
                     int attempts) {
  while (count < target && attempts-- > 0) {
    std::string candidate = text;
    detail::append_random_words(filler, 1, candidate);
    const auto grown = static_cast<std::int64_t>(tokenizer.count(candidate));
    if (grown <= target) {
      text = std::move(candidate);
      count = grown;
    }
  }
  return count;
}

// token_exact_text's search; throws what the tokenizer throws.
TokenText search(std::uint64_t seed, std::uint64_t index, std::string first_word,
                 std::int64_t first_word_tokens, std::int64_t target,
                 const tokenizer::Tokenizer& tokenizer) {
  WordText words(seed, index, std::move(first_word));
  // Most words are one token, so the first guess is close; each count moves the guess by the
  // tokens missing or over.
  std::int64_t guess = std::max<std::int64_t>(0, target - first_word_tokens);
  std::int64_t below_words = -1, below_count = 0;  // most words known to stay <= target
  int attempts = kMaxAttempts;
  for (; attempts > 0; --attempts) {
    const auto count = static_cast<std::int64_t>(tokenizer.count(words.with_words(guess)));
    if (count == target) return {words.with_words(guess), count};
    if (count < target && guess > below_words) {
      below_words = guess;
      below_count = count;
    }
    std::int64_t next = std::max<std::int64_t>(0, guess + (target - count));
    if (count > target && next <= below_words) break;  // one word too many, none too few
    if (next == guess) break;
    guess = next;
  }
  TokenText made{words.with_words(std::max<std::int64_t>(below_words, 0)), 0};
  const std::int64_t count =
      below_words >= 0 ? below_count : static_cast<std::int64_t>(tokenizer.count(made.text));
  detail::DrawEngine filler = detail::engine_for(seed, kFillerStream, index);
  made.tokens = fill_to(made.text, count, target, filler, tokenizer, std::max(attempts, 8));
  return made;
}

}  // namespace

TokenText token_exact_text(std::uint64_t seed, std::uint64_t index, std::string first_word,
                           std::int64_t first_word_tokens, std::int64_t target,
                           const tokenizer::Tokenizer& tokenizer) {
  try {
    return search(seed, index, first_word, first_word_tokens, target, tokenizer);
  } catch (const tokenizer::TokenizerError&) {
    // Sent as words; the report shows the server's count beside it.
    WordText words(seed, index, std::move(first_word));
    return {words.with_words(target - 1), -1};
  }
}

Prompt token_exact_prompt(const RandomPromptOptions& options, std::uint64_t index,
                          const TokenLengths& lengths) {
  Prompt prompt = random_prompt(options, index);
  const std::int64_t target = std::max<std::int64_t>(1, prompt.input_len - lengths.template_tokens);
  // Words after the index: the index is taken for one token at first.
  TokenText made =
      token_exact_text(options.seed, index, std::to_string(index), 1, target, *lengths.tokenizer);
  if (made.tokens >= 0) prompt.text = std::move(made.text);
  prompt.client_tokens = made.tokens;
  return prompt;
}

Prompt random_ids_prompt(const RandomPromptOptions& options, std::uint64_t index,
                         const tokenizer::Tokenizer* tokenizer) {
  Prompt prompt = random_prompt(options, index);
  const auto length = static_cast<std::size_t>(prompt.input_len);
  if (tokenizer != nullptr) {
    try {
      prompt.prompt_ids = tokenizer->encode(prompt.text);
    } catch (const tokenizer::TokenizerError&) {
      prompt.prompt_ids.clear();
    }
  }
  if (prompt.prompt_ids.empty()) {
    constexpr auto kSpan = static_cast<std::uint64_t>(kEndRandomId - kFirstRandomId);
    std::uint64_t rest = index;
    for (int digit = 0; digit < 3; ++digit, rest /= kSpan) {
      prompt.prompt_ids.push_back(kFirstRandomId + static_cast<TokenId>(rest % kSpan));
    }
    detail::DrawEngine draws = detail::engine_for(options.seed, detail::kWordStream, index);
    while (prompt.prompt_ids.size() < length) {
      prompt.prompt_ids.push_back(kFirstRandomId +
                                  static_cast<TokenId>(detail::draw_below(draws, kSpan)));
    }
  }
  // Words are at least one token each, so the encoding is rarely short; if it is, its last id
  // repeats.
  while (prompt.prompt_ids.size() < length) prompt.prompt_ids.push_back(prompt.prompt_ids.back());
  prompt.prompt_ids.resize(length);
  prompt.text.clear();
  prompt.client_tokens = prompt.input_len;
  return prompt;
}

}  // namespace bench::workload
