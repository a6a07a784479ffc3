#pragma once
// The BPE model of a tokenizer.json ("model": {"type": "BPE"}): a vocabulary, merges ranked by
// their order, and for SentencePiece-style files the fallback of unknown characters to byte
// tokens "<0xNN>". Follows tokenizers/src/models/bpe/{model,word}.rs: a piece starts as its
// characters; the pair of lowest rank (leftmost among equals) merges first, until none is left.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::tokenizer {

/// A hash for unordered maps keyed by std::string that finds a std::string_view without
/// building a string (C++20 heterogeneous lookup).
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};
using Vocabulary = std::unordered_map<std::string, TokenId, StringHash, std::equal_to<>>;

class BpeModel {
 public:
  /// Reads "vocab", "merges" ("a b" strings or ["a", "b"] pairs), "unk_token", "fuse_unk",
  /// "byte_fallback" and "ignore_merges". Throws TokenizerError for what it cannot honour
  /// (dropout, subword prefixes or suffixes, a merge of tokens not in the vocabulary).
  explicit BpeModel(const nlohmann::json& config);

  /// Appends the ids of one pre-tokenized piece to `ids`. Safe to call from several threads.
  void encode_piece(std::string_view piece, std::vector<TokenId>& ids) const;

  const Vocabulary& vocabulary() const { return vocabulary_; }

 private:
  struct MergeTarget {
    std::uint32_t rank;
    TokenId id;
  };
  struct Symbol {
    TokenId id;
    std::int32_t previous;  // index of the symbol before, -1 at the start
    std::int32_t next;      // index of the symbol after, -1 at the end
    bool alive;
  };

  void read_merges(const nlohmann::json& merges);
  void find_marker_joins();
  void encode_word(std::string_view word, std::vector<TokenId>& ids) const;
  std::optional<MergeTarget> merge_of(TokenId left, TokenId right) const;
  void initial_symbols(std::string_view piece, std::vector<Symbol>& symbols) const;
  void merge(std::vector<Symbol>& symbols) const;
  bool cached(std::string_view piece, std::vector<TokenId>& ids) const;
  void remember(std::string_view piece, const TokenId* first, std::size_t count) const;

  Vocabulary vocabulary_;
  std::unordered_map<std::uint64_t, MergeTarget> merges_;  // (left << 32 | right) -> merged
  std::array<TokenId, 256> byte_tokens_{};                 // "<0xNN>" ids, -1 when absent
  std::optional<TokenId> unk_id_;
  bool fuse_unk_ = false;
  bool byte_fallback_ = false;
  bool ignore_merges_ = false;
  // SentencePiece-style files have no pre-tokenizer: the text between added tokens is one
  // piece. No merge can cross a point before a "▁" unless some token holds the character
  // before it followed by "▁", so the piece is cut there into words: the same ids, and words
  // the cache can keep. The characters that do join a following "▁" in this vocabulary:
  std::unordered_set<std::string, StringHash, std::equal_to<>> joins_marker_;

  // Pieces repeat (words, spaces, punctuation), so their ids are kept, up to a bound.
  static constexpr std::size_t kCacheEntries = 1 << 16;
  static constexpr std::size_t kCachedPieceBytes = 256;
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<std::string, std::vector<TokenId>, StringHash, std::equal_to<>> cache_;
};

}  // namespace bench::tokenizer
