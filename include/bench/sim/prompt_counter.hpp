#pragma once
// How the embedded server counts and names prompt tokens, the one rule behind a completion's
// usage.prompt_tokens and its /tokenize answers, so the two can never disagree.
//
// Without a tokenizer the rule is util/words.hpp's (one token per whitespace-separated word,
// the rule bench's client counts by too), and each word's id is stable: a hash of its bytes,
// the same in every run and on every machine. With a Tokenizer (serve-sim --tokenizer PATH)
// it counts and names tokens as that tokenizer does.
//
// Chat requests may go through a chat template (--chat-template): `llama-2` renders the
// conversation as llama.cpp's llama-2 template does (llama.cpp src/llama-chat.cpp,
// LLM_CHAT_TEMPLATE_LLAMA_2), "[INST] {user} [/INST] {assistant} </s>", a system message
// inside the first turn as "<<SYS>> {system} <</SYS>>", and the prompt begins with BOS. Every
// marker stands apart (spaces around it), so by the word rule each is one token: one user
// message costs 3 template tokens (BOS, [INST], [/INST]), a system message 2 more.
// `none` counts the messages' content alone, each message by itself (a tokenizer counts no seam
// between them).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::sim {

enum class ChatTemplate { none, llama2 };
std::string_view chat_template_name(ChatTemplate chat_template);  // "none", "llama-2"
std::optional<ChatTemplate> parse_chat_template(std::string_view name);

/// The id of BOS in the word rule's vocabulary (llama-2's: 0 <unk>, 1 <s>, 2 </s>).
inline constexpr tokenizer::TokenId kBosId = 1;

class PromptCounter {
 public:
  /// `tokenizer` null: the word rule.
  PromptCounter(std::shared_ptr<const tokenizer::Tokenizer> tokenizer, ChatTemplate chat_template);

  /// Tokens of `text` as content (no BOS).
  std::vector<tokenizer::TokenId> encode(std::string_view text) const;
  std::int64_t count(std::string_view text) const;
  /// The special tokens the simulated model adds around one sequence, as a server encodes a
  /// completions prompt (vLLM with add_special_tokens=True, llama.cpp its model's BOS) and as
  /// /tokenize does when asked to (vLLM's add_special_tokens, true by default for a prompt;
  /// llama.cpp's add_special). With a tokenizer, what its post_processor adds (llama-2's BOS:
  /// 1); by the word rule, the BOS of the llama-2 model its template stands for, else none.
  std::size_t added_special_tokens() const;
  /// A completions prompt as a server counts it: count(text) + added_special_tokens().
  std::int64_t count_prompt(std::string_view text) const;
  /// Its ids: the added special tokens' (each kBosId: only their number is the server's), then
  /// encode(text).
  std::vector<tokenizer::TokenId> encode_prompt(std::string_view text) const;

  /// What the template makes of `messages` (an array of {role, content}), BOS not included:
  /// llama.cpp's /apply-template answer. nullopt when a message is not an object or its
  /// content is neither a string, null, nor an array of parts.
  std::optional<std::string> render_chat(const nlohmann::json& messages) const;

  /// The prompt tokens of a chat request: content alone with no template, else BOS plus the
  /// rendered conversation. nullopt as for render_chat.
  std::optional<std::int64_t> count_chat(const nlohmann::json& messages) const;
  std::optional<std::vector<tokenizer::TokenId>> encode_chat(const nlohmann::json& messages) const;

  ChatTemplate chat_template() const { return chat_template_; }

  /// The image rule (image_tokens.hpp): each image_url part costs this many pixels a side per
  /// token. Set once, before the server serves.
  void set_image_patch_px(std::int64_t px) { image_patch_px_ = px; }
  std::int64_t image_patch_px() const { return image_patch_px_; }

 private:
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer_;
  ChatTemplate chat_template_;
  std::int64_t image_patch_px_ = 14;
};

/// The text of a chat message's content: a string, or the "text" of each part joined by a
/// newline; null is "". nullopt for any other shape.
std::optional<std::string> content_text(const nlohmann::json& content);

/// An assistant message's "tool_calls" as a chat template puts them in the prompt: each call's
/// function name and arguments, separated by spaces; "" without calls. The simulator's
/// templates count and cache them as words, as a real template renders them as tokens.
std::string tool_calls_text(const nlohmann::json& message);

}  // namespace bench::sim
