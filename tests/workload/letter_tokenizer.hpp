#pragma once
// A tokenizer for tests of lengths in tokens: one token per letter (every byte but a space or a
// newline), so a count in tokens never equals the word count.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"

namespace workload_test {

class LetterTokenizer final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    return std::vector<bench::tokenizer::TokenId>(
        static_cast<std::size_t>(
            std::count_if(text.begin(), text.end(), [](char c) { return c != ' ' && c != '\n'; })),
        0);
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return none_; }
  const std::string& description() const override { return description_; }

 private:
  std::vector<std::string> none_;
  std::string description_ = "letters";
};

}  // namespace workload_test
