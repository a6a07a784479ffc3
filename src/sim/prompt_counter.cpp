#include "bench/sim/prompt_counter.hpp"

#include "bench/util/fnv1a.hpp"
#include "bench/util/words.hpp"

namespace bench::sim {

namespace {

using nlohmann::json;
using tokenizer::TokenId;

// Ids 0..2 are <unk>, <s>, </s> as in llama-2's vocabulary; words take the rest of 32000.
constexpr std::uint64_t kFirstWordId = 3;
constexpr std::uint64_t kVocabularySize = 32000;

TokenId word_id(std::string_view word) {
  util::Fnv1a64 hash;
  hash.add(word);
  return static_cast<TokenId>(kFirstWordId + hash.value() % (kVocabularySize - kFirstWordId));
}

std::vector<TokenId> word_ids(std::string_view text) {
  std::vector<TokenId> ids;
  std::size_t start = 0;
  while (start < text.size()) {
    while (start < text.size() && util::is_word_separator(text[start])) ++start;
    std::size_t end = start;
    while (end < text.size() && !util::is_word_separator(text[end])) ++end;
    if (end > start) ids.push_back(word_id(text.substr(start, end - start)));
    start = end;
  }
  return ids;
}

std::string role_of(const json& message) {
  const auto role = message.find("role");
  return role != message.end() && role->is_string() ? role->get<std::string>() : "user";
}

// A chat message's text: its content (a string, or parts), "" without one; nullopt when the
// message or its content has another shape.
std::optional<std::string> message_text(const json& message) {
  if (!message.is_object()) return std::nullopt;
  const auto content = message.find("content");
  std::optional<std::string> text =
      content == message.end() ? std::optional<std::string>("") : content_text(*content);
  if (text) {
    const std::string calls = tool_calls_text(message);
    if (!calls.empty()) *text += (text->empty() ? "" : " ") + calls;
  }
  return text;
}

// llama.cpp's LLM_CHAT_TEMPLATE_LLAMA_2 (src/llama-chat.cpp), with every marker spaced apart.
std::optional<std::string> render_llama2(const json& messages) {
  std::string out;
  std::string system;
  bool open_turn = false;
  for (const json& message : messages) {
    const std::optional<std::string> text = message_text(message);
    if (!text) return std::nullopt;
    const std::string role = role_of(message);
    if (role == "system") {
      system = "<<SYS>> " + *text + " <</SYS>> ";
    } else if (role == "assistant") {
      out += " " + *text + " </s> ";
      open_turn = false;
    } else {
      if (!out.empty() && open_turn) out += " ";
      out += "[INST] " + system + *text + " [/INST]";
      system.clear();
      open_turn = true;
    }
  }
  return out;
}

}  // namespace

std::string_view chat_template_name(ChatTemplate chat_template) {
  return chat_template == ChatTemplate::llama2 ? "llama-2" : "none";
}

std::optional<ChatTemplate> parse_chat_template(std::string_view name) {
  if (name == "none") return ChatTemplate::none;
  if (name == "llama-2") return ChatTemplate::llama2;
  return std::nullopt;
}

std::optional<std::string> content_text(const json& content) {
  if (content.is_null()) return std::string();
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) return std::nullopt;
  std::string text;
  for (const json& part : content) {
    if (!part.is_object()) return std::nullopt;
    const auto part_text = part.find("text");
    if (part_text == part.end() || !part_text->is_string()) continue;
    if (!text.empty()) text += '\n';
    text += part_text->get<std::string>();
  }
  return text;
}

std::string tool_calls_text(const json& message) {
  std::string text;
  const auto calls = message.find("tool_calls");
  if (calls == message.end() || !calls->is_array()) return text;
  for (const json& call : *calls) {
    if (!call.is_object()) continue;
    const auto function = call.find("function");
    if (function == call.end() || !function->is_object()) continue;
    for (const char* key : {"name", "arguments"}) {
      const auto field = function->find(key);
      if (field == function->end() || !field->is_string()) continue;
      if (!text.empty()) text += ' ';
      text += field->get_ref<const std::string&>();
    }
  }
  return text;
}

PromptCounter::PromptCounter(std::shared_ptr<const tokenizer::Tokenizer> tokenizer,
                             ChatTemplate chat_template)
    : tokenizer_(std::move(tokenizer)), chat_template_(chat_template) {}

std::vector<TokenId> PromptCounter::encode(std::string_view text) const {
  return tokenizer_ ? tokenizer_->encode(text) : word_ids(text);
}

std::int64_t PromptCounter::count(std::string_view text) const {
  return tokenizer_ ? static_cast<std::int64_t>(tokenizer_->count(text)) : util::count_words(text);
}

std::size_t PromptCounter::added_special_tokens() const {
  if (tokenizer_) return tokenizer_->added_special_tokens().value_or(0);
  return chat_template_ == ChatTemplate::llama2 ? 1 : 0;
}

std::int64_t PromptCounter::count_prompt(std::string_view text) const {
  return count(text) + static_cast<std::int64_t>(added_special_tokens());
}

std::vector<TokenId> PromptCounter::encode_prompt(std::string_view text) const {
  std::vector<TokenId> ids(added_special_tokens(), kBosId);
  const std::vector<TokenId> body = encode(text);
  ids.insert(ids.end(), body.begin(), body.end());
  return ids;
}

std::optional<std::string> PromptCounter::render_chat(const json& messages) const {
  if (!messages.is_array()) return std::nullopt;
  if (chat_template_ == ChatTemplate::llama2) return render_llama2(messages);
  std::string joined;
  for (const json& message : messages) {
    const std::optional<std::string> text = message_text(message);
    if (!text) return std::nullopt;
    if (!joined.empty()) joined += "\n\n";
    joined += *text;
  }
  return joined;
}

std::optional<std::vector<TokenId>> PromptCounter::encode_chat(const json& messages) const {
  std::vector<TokenId> ids;
  if (chat_template_ == ChatTemplate::none) {
    if (!messages.is_array()) return std::nullopt;
    for (const json& message : messages) {
      const std::optional<std::string> text = message_text(message);
      if (!text) return std::nullopt;
      const std::vector<TokenId> content = encode(*text);
      ids.insert(ids.end(), content.begin(), content.end());
    }
    return ids;
  }
  const std::optional<std::string> rendered = render_chat(messages);
  if (!rendered) return std::nullopt;
  ids.push_back(kBosId);
  const std::vector<TokenId> body = encode(*rendered);
  ids.insert(ids.end(), body.begin(), body.end());
  return ids;
}

std::optional<std::int64_t> PromptCounter::count_chat(const json& messages) const {
  if (chat_template_ == ChatTemplate::none) {
    // Each message's content counted alone: what joins them for /apply-template (a blank line)
    // is no content, and a tokenizer would count it.
    if (!messages.is_array()) return std::nullopt;
    std::int64_t total = 0;
    for (const json& message : messages) {
      const std::optional<std::string> text = message_text(message);
      if (!text) return std::nullopt;
      total += count(*text);
    }
    return total;
  }
  const std::optional<std::string> rendered = render_chat(messages);
  if (!rendered) return std::nullopt;
  return count(*rendered) + 1;  // BOS
}

}  // namespace bench::sim
