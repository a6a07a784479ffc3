#include "bench/workload/agent_block_text.hpp"

#include <string>
#include <utility>

#include "bench/util/splitmix64.hpp"
#include "bench/workload/token_prompts.hpp"
#include "random_text.hpp"

namespace bench::workload {

namespace {

// "k" and as many of the key's digits as `length` tokens hold (all of them in a 64-token
// block), with its count.
std::pair<std::string, std::int64_t> fitted_marker(std::uint64_t key, std::int64_t length,
                                                   const tokenizer::Tokenizer& tokenizer) {
  std::string marker = "k" + std::to_string(key);
  auto tokens = static_cast<std::int64_t>(tokenizer.count(marker));
  while (tokens > length && marker.size() > 1) {
    marker.pop_back();
    tokens = static_cast<std::int64_t>(tokenizer.count(marker));
  }
  return {std::move(marker), tokens};
}

}  // namespace

std::string agent_piece_text(std::uint64_t seed, std::uint64_t key, std::int64_t length,
                             const tokenizer::Tokenizer* tokenizer) {
  if (tokenizer != nullptr) {
    try {
      auto [marker, tokens] = fitted_marker(key, length, *tokenizer);
      return token_exact_text(seed, key, std::move(marker), tokens, length, *tokenizer).text;
    } catch (const tokenizer::TokenizerError&) {
      // Left in words: the request's count of what is sent says the tokenizer failed.
    }
  }
  detail::DrawEngine words = detail::engine_for(seed, detail::kWordStream, key);
  std::string text = "k" + std::to_string(key);
  detail::append_random_words(words, length - 1, text);
  return text;
}

std::size_t BlockTexts::KeyHash::operator()(const Key& key) const {
  std::uint64_t hash = util::splitmix64_mix(key.seed ^ util::splitmix64_mix(key.key));
  hash = util::splitmix64_mix(hash ^ static_cast<std::uint64_t>(key.length));
  return static_cast<std::size_t>(hash ^ reinterpret_cast<std::uintptr_t>(key.tokenizer));
}

const std::string& BlockTexts::text(std::uint64_t seed, std::uint64_t key, std::int64_t length,
                                    const tokenizer::Tokenizer* tokenizer) {
  const Key wanted{seed, key, length, tokenizer};
  if (const auto found = index_.find(wanted); found != index_.end()) {
    ++hits_;
    entries_.splice(entries_.begin(), entries_, found->second);
    return found->second->text;
  }
  ++misses_;
  entries_.push_front({wanted, agent_piece_text(seed, key, length, tokenizer)});
  index_.emplace(wanted, entries_.begin());
  bytes_ += entries_.front().text.size();
  // The newest entry stays, however large: it is the one the caller reads.
  while (bytes_ > capacity_bytes_ && entries_.size() > 1) {
    bytes_ -= entries_.back().text.size();
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
  return entries_.front().text;
}

}  // namespace bench::workload
