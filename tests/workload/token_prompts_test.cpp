#include "bench/workload/token_prompts.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

namespace {

using bench::tokenizer::TokenId;
using bench::workload::RandomPromptOptions;
using bench::workload::TokenLengths;

// A tokenizer that splits words of more than five letters in two, as real vocabularies split
// rarer words: the word count alone would miss its count.
class SplittingTokenizer final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<TokenId> encode(std::string_view text) const override {
    std::istringstream words{std::string(text)};
    std::vector<TokenId> ids;
    for (std::string word; words >> word;) {
      ids.push_back(static_cast<TokenId>(word.size()));
      if (word.size() > 5) ids.push_back(0);
    }
    return ids;
  }
  std::string decode(const std::vector<TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return specials_; }
  const std::string& description() const override { return description_; }

 private:
  std::vector<std::string> specials_;
  std::string description_ = "splitting test tokenizer";
};

TEST(TokenPrompts, every_random_prompt_is_exactly_its_length_as_the_tokenizer_counts_it) {
  const SplittingTokenizer tokenizer;
  for (std::int64_t length : {1, 2, 7, 100, 1000}) {
    const RandomPromptOptions options{0, length, 16, 42, 0.0};
    for (std::uint64_t index = 0; index < 20; ++index) {
      const auto prompt = bench::workload::token_exact_prompt(options, index, {&tokenizer, 0});
      EXPECT_EQ(tokenizer.count(prompt.text), static_cast<std::size_t>(length))
          << "length " << length << " index " << index;
      EXPECT_EQ(prompt.client_tokens, length);
      EXPECT_EQ(prompt.text.rfind(std::to_string(index), 0), 0u);  // the index first
    }
  }
}

TEST(TokenPrompts, the_template_share_is_taken_off_each_prompt) {
  const SplittingTokenizer tokenizer;
  const RandomPromptOptions options{0, 100, 16, 7, 0.0};
  const auto prompt = bench::workload::token_exact_prompt(options, 3, {&tokenizer, 8});
  EXPECT_EQ(tokenizer.count(prompt.text), 92u);
  EXPECT_EQ(prompt.input_len, 100);
}

TEST(TokenPrompts, random_ids_are_exactly_n_and_distinct_from_the_first_ids) {
  const RandomPromptOptions options{0, 1000, 16, 42, 0.0};
  std::set<std::vector<TokenId>> heads;
  for (std::uint64_t index = 0; index < 50; ++index) {
    const auto prompt = bench::workload::random_ids_prompt(options, index, nullptr);
    ASSERT_EQ(prompt.prompt_ids.size(), 1000u);
    EXPECT_TRUE(prompt.text.empty());
    heads.insert({prompt.prompt_ids.begin(), prompt.prompt_ids.begin() + 3});
    for (TokenId id : prompt.prompt_ids) {
      EXPECT_GE(id, bench::workload::kFirstRandomId);
      EXPECT_LT(id, bench::workload::kEndRandomId);
    }
  }
  EXPECT_EQ(heads.size(), 50u);
  const SplittingTokenizer tokenizer;
  EXPECT_EQ(bench::workload::random_ids_prompt(options, 1, &tokenizer).prompt_ids.size(), 1000u);
}

}  // namespace
