#pragma once
// A Hugging Face tokenizer.json read natively: the BPE families today's open models use,
// byte-level (GPT-2 style: Llama-3, Qwen2/3, DeepSeek-V3) and SentencePiece-style with byte
// fallback (Llama-2, Mistral, Gemma). The pipeline is tokenizers' own: added tokens first, then
// per stretch between them normalizer -> pre-tokenizer -> BPE; decoding through the decoder.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bench/tokenizer/added_tokens.hpp"
#include "bench/tokenizer/bpe_model.hpp"
#include "bench/tokenizer/decoder.hpp"
#include "bench/tokenizer/normalizer.hpp"
#include "bench/tokenizer/pre_tokenizer.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::tokenizer {

/// Opens a tokenizer.json. Throws TokenizerError, one line naming the file and what is wrong:
/// missing or unreadable, truncated, not JSON, or a part bench does not support (the model
/// type, a normalizer, pre-tokenizer or decoder, an option), before anything is sent.
std::unique_ptr<Tokenizer> load_hf_tokenizer(const std::filesystem::path& path);

/// The same from the file's text; `name` stands for the file in messages and the description.
std::unique_ptr<Tokenizer> parse_hf_tokenizer(std::string_view json_text, const std::string& name);

class HfTokenizer final : public Tokenizer {
 public:
  /// Throws TokenizerError (without the file name) for what it cannot honour.
  HfTokenizer(const nlohmann::json& config, const std::string& name);

  std::vector<TokenId> encode(std::string_view text) const override;
  std::string decode(const std::vector<TokenId>& ids) const override;
  /// What the file's post_processor adds to a single sequence (TemplateProcessing's special
  /// tokens, BERT's and RoBERTa's two; none for ByteLevel or no post_processor).
  std::optional<std::size_t> added_special_tokens() const override { return added_special_tokens_; }
  const std::vector<std::string>& special_tokens() const override { return special_tokens_; }
  const std::string& description() const override { return description_; }

 private:
  void encode_plain(std::string_view text, bool starts_text, std::vector<TokenId>& ids) const;
  void encode_normalized(std::string_view text, bool starts_text, std::vector<TokenId>& ids) const;
  void read_added_tokens(const nlohmann::json& added_tokens);
  std::string_view token_text(TokenId id) const;

  std::unique_ptr<Normalizer> normalizer_;
  std::unique_ptr<PreTokenizer> pre_tokenizer_;
  BpeModel model_;
  std::unique_ptr<Decoder> decoder_;
  AddedTokenMatcher raw_added_{{}};         // added tokens matched in the text as given
  AddedTokenMatcher normalized_added_{{}};  // those marked "normalized", in normalized text
  std::unordered_map<TokenId, std::string> added_by_id_;
  std::vector<std::string> id_to_token_;  // the vocabulary by id
  std::vector<std::string> special_tokens_;
  std::size_t added_special_tokens_ = 0;
  std::string description_;
};

}  // namespace bench::tokenizer
