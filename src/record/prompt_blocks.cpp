#include "bench/record/prompt_blocks.hpp"

#include "bench/util/words.hpp"

#include "salted_hash.hpp"

namespace bench::record {

namespace {

using nlohmann::json;

const std::string* text_at(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

void append(std::string& text, std::string_view piece, char separator) {
  if (piece.empty()) return;
  if (!text.empty()) text += separator;
  text += piece;
}

}  // namespace

std::string message_text(const json& message) {
  std::string text;
  if (!message.is_object()) return text;
  if (const auto content = message.find("content"); content != message.end()) {
    if (content->is_string()) {
      text = content->get<std::string>();
    } else if (content->is_array()) {
      for (const json& part : *content) {
        if (!part.is_object()) continue;
        if (const std::string* part_text = text_at(part, "text")) append(text, *part_text, '\n');
      }
    }
  }
  const auto calls = message.find("tool_calls");
  if (calls == message.end() || !calls->is_array()) return text;
  for (const json& call : *calls) {
    const auto function = call.is_object() ? call.find("function") : call.end();
    if (function == call.end() || !function->is_object()) continue;
    for (const char* key : {"name", "arguments"}) {
      if (const std::string* field = text_at(*function, key)) append(text, *field, ' ');
    }
  }
  return text;
}

BlockHasher::BlockHasher(std::uint64_t salt, std::int64_t block_size,
                         const tokenizer::Tokenizer* tokenizer)
    : salt_(salt), block_size_(block_size), tokenizer_(tokenizer) {}

std::vector<std::uint64_t> BlockHasher::unit_hashes(std::string_view text) const {
  std::vector<std::uint64_t> units;
  if (tokenizer_ != nullptr) {
    for (const tokenizer::TokenId id : tokenizer_->encode(text)) {
      units.push_back(static_cast<std::uint64_t>(id));
    }
    return units;
  }
  std::size_t start = 0;
  while (start < text.size()) {
    while (start < text.size() && util::is_word_separator(text[start])) ++start;
    std::size_t end = start;
    while (end < text.size() && !util::is_word_separator(text[end])) ++end;
    if (end > start) units.push_back(text_hash(text.substr(start, end - start)));
    start = end;
  }
  return units;
}

PromptBlocks BlockHasher::blocks(const json& messages) const {
  PromptBlocks blocks;
  std::uint64_t so_far = chain_start(salt_);
  bool leading_system = true;
  for (const json& message : messages) {
    const std::string* role = message.is_object() ? text_at(message, "role") : nullptr;
    // The role where the message begins: a message boundary is part of the prefix.
    so_far = chain(so_far, text_hash(role != nullptr ? *role : "user"));
    leading_system = leading_system && role != nullptr && *role == "system";
    for (const std::uint64_t unit : unit_hashes(message_text(message))) {
      so_far = chain(so_far, unit);
      ++blocks.units;
      if (blocks.units % block_size_ == 0) blocks.hashes.push_back(so_far);
    }
    if (leading_system) blocks.system_units = blocks.units;
  }
  return blocks;
}

std::int64_t BlockHasher::count(std::string_view text) const {
  if (tokenizer_ != nullptr) return static_cast<std::int64_t>(tokenizer_->count(text));
  return util::count_words(text);
}

}  // namespace bench::record
