#pragma once
// The tokenizer's count of each message a replay sends, kept for the requests that send it
// again. A recorded agent's request resends its whole context (agent_history.hpp), whose earlier
// messages are the same text in every request: counting them again costs Llama-3's tokenizer
// tens of milliseconds a 100k-token request on the client's event loop. A message is
// known by a 64-bit hash of its bytes (and its length); every distinct message is still counted
// whole once, by the tokenizer, as sent.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::workload {

class MessageCounts {
 public:
  // Bounded as the tokenizer's own word cache is: when full it starts again rather than grow.
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 16;

  /// tokenizer.count(message), counted once for each distinct message. Throws what the
  /// tokenizer throws (tokenizer::TokenizerError).
  std::int64_t count(std::string_view message, const tokenizer::Tokenizer& tokenizer);

  std::uint64_t hits() const { return hits_; }

 private:
  struct Key {
    std::size_t hash;
    std::size_t bytes;
    const tokenizer::Tokenizer* tokenizer;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const { return key.hash ^ key.bytes; }
  };

  std::unordered_map<Key, std::int64_t, KeyHash> counts_;
  std::uint64_t hits_ = 0;
};

}  // namespace bench::workload
