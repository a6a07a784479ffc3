#pragma once
// The added tokens of a tokenizer.json ("added_tokens": special markers such as <|im_start|>,
// and extra words): found in the text before anything else, leftmost and then longest first,
// each becoming its one id, as tokenizers/src/tokenizer/added_vocabulary.rs does with its
// Aho-Corasick automaton. `lstrip`/`rstrip` let a token take the whitespace beside it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::tokenizer {

struct AddedToken {
  std::string content;
  TokenId id = 0;
  bool lstrip = false;
  bool rstrip = false;
};

/// A stretch of text: either one added token (`id` set) or plain text between them.
struct Segment {
  std::string_view text;
  std::optional<TokenId> id;
  std::size_t offset = 0;  // where `text` begins in the text that was split
};

class AddedTokenMatcher {
 public:
  explicit AddedTokenMatcher(const std::vector<AddedToken>& tokens);

  bool empty() const { return nodes_.size() == 1; }

  /// `text` cut into added tokens and the plain text between them, in order; empty plain
  /// stretches are left out.
  std::vector<Segment> split(std::string_view text) const;

 private:
  struct Node {
    std::vector<std::pair<unsigned char, std::int32_t>> children;  // sorted by byte
    std::int32_t token = -1;  // index into tokens_ of the token that ends here
  };
  struct Match {
    std::size_t begin;
    std::size_t end;
    std::int32_t token;
  };

  std::int32_t child(std::int32_t node, unsigned char byte) const;
  std::optional<Match> longest_at(std::string_view text, std::size_t at) const;

  std::vector<Node> nodes_;  // a byte trie; nodes_[0] is the root
  std::vector<AddedToken> tokens_;
  std::array<bool, 256> may_start_{};  // bytes some token starts with
};

}  // namespace bench::tokenizer
