#pragma once
// The text of one piece of a recorded agent request (agent_history.hpp: a block, or a request's
// tail): "k" and the piece's key in digits, then random words, `length` words long, or with a
// tokenizer exactly `length` tokens.
//
// Why "k" first: a piece inside a message follows a space; one that starts a message follows a
// template's marker or nothing, and some templates trim a message's content (Llama-3's,
// Gemma-3's). A piece that began with its key's digits, as a random prompt begins with its
// index, costs one token more inside a message than alone on Llama-3, Qwen3, DeepSeek-V3 and
// Gemma-3: their pre-tokenizers make the space before a digit a token of its own. "k" is one
// token with or without a space before it, and none of these vocabularies merges it with the
// digits after it, so a piece costs the same tokens wherever it stands: a message is exactly
// its pieces' tokens, every block boundary in place (tests/workload/agent_tokens_test.cpp, on
// five real tokenizers, with and without real chat templates). A vocabulary without " k" as one
// token (none known) would count each block after a message's first one token more, which the
// request's count of what is sent (client_prompt_tokens) would show.
//
// Making a piece exactly `length` tokens costs a few encodes of it; a request resends its whole
// context, so BlockTexts keeps the blocks' texts (a block's text depends only on its stream's
// seed, its key and its length) and a resent block costs nothing.
#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::workload {

/// Why a replay's blocks are never counted by the server's /tokenize (--tokenizer server): each
/// is made to its length by a few counts of it when its request is sent (a 100k-token context is
/// ~1,600 blocks, each made once while kept), so the server under test would answer thousands
/// of /tokenize calls while it is measured, each a round trip on the client's event loop.
inline constexpr std::string_view kNoServerTokenizeReason =
    "a weka trace's blocks are made to their lengths when sent, a few counts a block (~1,600 "
    "blocks in a 100k-token context): the server's /tokenize would be asked thousands of times "
    "while it is measured";

/// The piece of `length` (>= 1) words, or with a tokenizer tokens, of `key` drawn from `seed`.
/// With a tokenizer the key's digits are cut (from the right) where the whole key would cost
/// more than `length` tokens (a short tail; Qwen3 counts a digit a token). A tokenizer that fails
/// leaves the piece in words.
std::string agent_piece_text(std::uint64_t seed, std::uint64_t key, std::int64_t length,
                             const tokenizer::Tokenizer* tokenizer);

/// Block texts kept for the requests that resend them: the least recently used dropped beyond
/// `capacity_bytes` of text (then made again if a request asks for them). One per scheduler:
/// not for several threads at once.
class BlockTexts {
 public:
  // 64 MiB holds the contexts of ~120 lanes at 100k tokens (about 4.3 bytes a token).
  static constexpr std::size_t kDefaultCapacityBytes = std::size_t{64} << 20;

  explicit BlockTexts(std::size_t capacity_bytes = kDefaultCapacityBytes)
      : capacity_bytes_(capacity_bytes) {}

  /// agent_piece_text(seed, key, length, tokenizer), kept; valid until the next call.
  const std::string& text(std::uint64_t seed, std::uint64_t key, std::int64_t length,
                          const tokenizer::Tokenizer* tokenizer);

  std::size_t bytes() const { return bytes_; }
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }

 private:
  struct Key {
    std::uint64_t seed;
    std::uint64_t key;
    std::int64_t length;
    const tokenizer::Tokenizer* tokenizer;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const;
  };
  struct Entry {
    Key key;
    std::string text;
  };

  std::size_t capacity_bytes_;
  std::size_t bytes_ = 0;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index_;
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
};

}  // namespace bench::workload
