#include "bench/sim/prefix_cache.hpp"

#include <algorithm>

#include "bench/sim/image_tokens.hpp"
#include "bench/sim/prompt_counter.hpp"
#include "bench/util/words.hpp"

namespace bench::sim {

namespace {

using nlohmann::json;

constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

// A chat message's content: a string, or an array of parts of which "text" parts and images
// count, in order.
void add_content(PrefixHasher& hasher, const json& content, std::int64_t image_patch_px) {
  if (content.is_string()) {
    hasher.add_text(content.get_ref<const std::string&>());
    return;
  }
  if (!content.is_array()) return;
  for (const json& part : content) {
    if (!part.is_object()) continue;
    if (const std::optional<PartImage> image = image_of_part(part, image_patch_px)) {
      hasher.add_image(image->bytes_hash, image->tokens);
      continue;
    }
    const auto text = part.find("text");
    if (text != part.end() && text->is_string())
      hasher.add_text(text->get_ref<const std::string&>());
  }
}

void add_prompt(PrefixHasher& hasher, const json& prompt) {
  if (prompt.is_string()) {
    hasher.add_text(prompt.get_ref<const std::string&>());
    return;
  }
  if (!prompt.is_array()) return;
  for (const json& part : prompt) {
    if (part.is_string()) {
      hasher.add_text(part.get_ref<const std::string&>());
    } else if (part.is_number_integer()) {
      hasher.add_token_id(part.get<std::int64_t>());
    }
  }
}

}  // namespace

void PrefixHasher::mix(std::string_view bytes) {
  for (const char c : bytes) {
    hash_ ^= static_cast<unsigned char>(c);
    hash_ *= kFnvPrime;
  }
}

// A separator byte after each token, so "ab c" and "a bc" differ.
void PrefixHasher::end_token() {
  mix(std::string_view("\x1f", 1));
  if (++tokens_ % kPrefixBlockTokens == 0) block_hashes_.push_back(hash_);
}

void PrefixHasher::add_word(std::string_view word) {
  mix(word);
  end_token();
}

void PrefixHasher::add_token_id(std::int64_t id) {
  mix(std::string_view("\x1e", 1));
  const auto bits = static_cast<std::uint64_t>(id);
  for (int shift = 0; shift < 64; shift += 8) {
    const char byte = static_cast<char>((bits >> shift) & 0xFF);
    mix(std::string_view(&byte, 1));
  }
  end_token();
}

void PrefixHasher::add_marker(std::string_view marker) {
  mix(std::string_view("\x1d", 1));
  mix(marker);
  mix(std::string_view("\x1d", 1));
}

void PrefixHasher::add_image(std::uint64_t bytes_hash, std::int64_t tokens) {
  mix(std::string_view("\x1c", 1));
  for (int shift = 0; shift < 64; shift += 8) {
    const char byte = static_cast<char>((bytes_hash >> shift) & 0xFF);
    mix(std::string_view(&byte, 1));
  }
  for (std::int64_t i = 0; i < tokens; ++i) end_token();
}

void PrefixHasher::add_text(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && util::is_word_separator(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !util::is_word_separator(text[i])) ++i;
    if (i > start) add_word(text.substr(start, i - start));
  }
}

std::vector<std::uint64_t> prompt_block_hashes(std::string_view body, bool chat,
                                               std::int64_t image_patch_px) {
  const json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return {};
  PrefixHasher hasher;
  if (chat) {
    const auto messages = parsed.find("messages");
    if (messages == parsed.end() || !messages->is_array()) return {};
    for (const json& message : *messages) {
      if (!message.is_object()) continue;
      // The role is part of what the engine prefills (the chat template), not a counted word.
      const auto role = message.find("role");
      hasher.add_marker(role != message.end() && role->is_string()
                            ? std::string_view(role->get_ref<const std::string&>())
                            : std::string_view());
      if (const auto content = message.find("content"); content != message.end()) {
        add_content(hasher, *content, image_patch_px);
      }
      hasher.add_text(tool_calls_text(message));  // what prompt_counter.cpp counts
    }
  } else if (const auto prompt = parsed.find("prompt"); prompt != parsed.end()) {
    add_prompt(hasher, *prompt);
  }
  return hasher.block_hashes();
}

PrefixCache::PrefixCache(std::int64_t capacity_blocks)
    : capacity_blocks_(std::max<std::int64_t>(0, capacity_blocks)) {}

std::int64_t PrefixCache::admit(std::span<const std::uint64_t> block_hashes,
                                std::int64_t prompt_tokens) {
  // Only blocks that end before the last prompt token can be served from the cache.
  const auto usable = static_cast<std::size_t>(std::clamp<std::int64_t>(
      (prompt_tokens - 1) / kPrefixBlockTokens, 0, static_cast<std::int64_t>(block_hashes.size())));
  std::size_t hits = 0;
  while (hits < usable) {
    const auto found = index_.find(block_hashes[hits]);
    if (found == index_.end()) break;
    touch(found->second);
    ++hits;
  }
  for (std::size_t i = hits; i < block_hashes.size(); ++i) insert(block_hashes[i]);
  return static_cast<std::int64_t>(hits) * kPrefixBlockTokens;
}

void PrefixCache::flush() {
  lru_.clear();
  index_.clear();
}

void PrefixCache::touch(std::list<std::uint64_t>::iterator block) {
  lru_.splice(lru_.begin(), lru_, block);
}

void PrefixCache::insert(std::uint64_t block_hash) {
  if (capacity_blocks_ == 0) return;
  if (const auto found = index_.find(block_hash); found != index_.end()) {
    touch(found->second);
    return;
  }
  if (static_cast<std::int64_t>(lru_.size()) >= capacity_blocks_) {
    index_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(block_hash);
  index_[block_hash] = lru_.begin();
}

}  // namespace bench::sim
