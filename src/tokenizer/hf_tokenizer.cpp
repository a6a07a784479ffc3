#include "bench/tokenizer/hf_tokenizer.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/utf8.hpp"

namespace bench::tokenizer {
namespace {

// "byte-level" when the file works in GPT-2's byte alphabet, else SentencePiece-style.
bool uses_byte_level(const nlohmann::json& config) {
  const std::string text = config.value("pre_tokenizer", nlohmann::json()).dump() +
                           config.value("decoder", nlohmann::json()).dump();
  return text.find("\"ByteLevel\"") != std::string::npos;
}

// The tokens a post_processor adds around one sequence, as tokenizers' processors/*.rs do when
// a prompt is encoded with add_special_tokens: TemplateProcessing's "single" template (each
// SpecialToken entry stands for its "ids"), BertProcessing's and RobertaProcessing's [CLS]
// and [SEP] (or <s> and </s>), a Sequence's processors in turn; ByteLevel adds none.
std::size_t post_processor_tokens(const nlohmann::json& processor) {
  if (!processor.is_object()) return 0;
  const std::string type = processor.value("type", "");
  if (type == "BertProcessing" || type == "RobertaProcessing") return 2;
  std::size_t added = 0;
  if (type == "Sequence") {
    for (const auto& inner : processor.value("processors", nlohmann::json::array())) {
      added += post_processor_tokens(inner);
    }
    return added;
  }
  if (type != "TemplateProcessing") return 0;
  const nlohmann::json specials = processor.value("special_tokens", nlohmann::json::object());
  for (const auto& piece : processor.value("single", nlohmann::json::array())) {
    if (!piece.contains("SpecialToken")) continue;
    const std::string id = piece["SpecialToken"].value("id", "");
    const auto special = specials.find(id);
    added += special != specials.end() && special->contains("ids") ? special->at("ids").size() : 1;
  }
  return added;
}

}  // namespace

HfTokenizer::HfTokenizer(const nlohmann::json& config, const std::string& name)
    : normalizer_(make_normalizer(config.value("normalizer", nlohmann::json()))),
      pre_tokenizer_(make_pre_tokenizer(config.value("pre_tokenizer", nlohmann::json()))),
      model_(config.at("model")),
      decoder_(make_decoder(config.value("decoder", nlohmann::json()))) {
  read_added_tokens(config.value("added_tokens", nlohmann::json::array()));
  added_special_tokens_ = post_processor_tokens(config.value("post_processor", nlohmann::json()));
  TokenId largest = -1;
  for (const auto& [token, id] : model_.vocabulary()) largest = std::max(largest, id);
  id_to_token_.resize(static_cast<std::size_t>(largest + 1));
  for (const auto& [token, id] : model_.vocabulary()) {
    id_to_token_[static_cast<std::size_t>(id)] = token;
  }
  for (const auto& [id, content] : added_by_id_) largest = std::max(largest, id);
  description_ = name + ": " +
                 (uses_byte_level(config) ? "byte-level BPE" : "SentencePiece-style BPE") + ", " +
                 std::to_string(largest + 1) + " tokens";
}

void HfTokenizer::read_added_tokens(const nlohmann::json& added_tokens) {
  std::vector<AddedToken> raw;
  std::vector<AddedToken> normalized;
  for (const auto& entry : added_tokens) {
    AddedToken token{entry.at("content").get<std::string>(), entry.at("id").get<TokenId>(),
                     entry.value("lstrip", false), entry.value("rstrip", false)};
    if (entry.value("single_word", false)) {
      throw TokenizerError("unsupported added token option 'single_word' (token '" + token.content +
                           "')");
    }
    added_by_id_[token.id] = token.content;
    if (entry.value("special", false)) special_tokens_.push_back(token.content);
    // added_vocabulary.rs: a "normalized" token is looked for in normalized text, itself
    // normalized; without a normalizer both passes see the same text.
    if (entry.value("normalized", false) && normalizer_) {
      normalizer_->normalize(token.content);
      normalized.push_back(std::move(token));
    } else {
      raw.push_back(std::move(token));
    }
  }
  raw_added_ = AddedTokenMatcher(raw);
  normalized_added_ = AddedTokenMatcher(normalized);
}

std::vector<TokenId> HfTokenizer::encode(std::string_view text) const {
  // Hugging Face tokenizers only sees valid UTF-8 (a Rust String); invalid bytes are repaired
  // the way from_utf8_lossy repairs them.
  std::string repaired;
  if (!utf8::is_valid(text)) {
    repaired = utf8::to_valid(text);
    text = repaired;
  }
  std::vector<TokenId> ids;
  ids.reserve(text.size() / 3);
  for (const Segment& segment : raw_added_.split(text)) {
    if (segment.id) {
      ids.push_back(*segment.id);
    } else {
      encode_plain(segment.text, segment.offset == 0, ids);
    }
  }
  return ids;
}

void HfTokenizer::encode_plain(std::string_view text, bool starts_text,
                               std::vector<TokenId>& ids) const {
  if (!normalizer_) {
    encode_normalized(text, starts_text, ids);
    return;
  }
  std::string normalized(text);
  normalizer_->normalize(normalized);
  if (normalized_added_.empty()) {
    encode_normalized(normalized, starts_text, ids);
    return;
  }
  for (const Segment& segment : normalized_added_.split(normalized)) {
    if (segment.id) {
      ids.push_back(*segment.id);
    } else {
      encode_normalized(segment.text, starts_text && segment.offset == 0, ids);
    }
  }
}

void HfTokenizer::encode_normalized(std::string_view text, bool starts_text,
                                    std::vector<TokenId>& ids) const {
  if (!pre_tokenizer_) {
    model_.encode_piece(text, ids);
    return;
  }
  std::vector<Piece> pieces{{std::string(text), starts_text}};
  pre_tokenizer_->split(pieces);
  for (const Piece& piece : pieces) model_.encode_piece(piece.text, ids);
}

std::string_view HfTokenizer::token_text(TokenId id) const {
  if (auto it = added_by_id_.find(id); it != added_by_id_.end()) return it->second;
  if (id >= 0 && static_cast<std::size_t>(id) < id_to_token_.size()) {
    return id_to_token_[static_cast<std::size_t>(id)];
  }
  return {};
}

std::string HfTokenizer::decode(const std::vector<TokenId>& ids) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (TokenId id : ids) {
    const std::string_view text = token_text(id);
    if (!text.empty()) tokens.emplace_back(text);  // unknown ids are left out, as tokenizers does
  }
  if (decoder_) {
    decoder_->decode(tokens);
    std::string out;
    for (const std::string& token : tokens) out += token;
    return out;
  }
  std::string out;  // no decoder: tokenizer.rs joins the tokens with spaces
  for (const std::string& token : tokens) {
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

}  // namespace bench::tokenizer
