#pragma once
// The normalizers of a tokenizer.json ("normalizer"), applied to each stretch of text between
// added tokens before pre-tokenization. The ones today's BPE files use: NFC (Qwen), Prepend and
// Replace (Llama-2 and Mistral write a leading "▁" and every space as "▁"; Gemma the second),
// and Sequence. Behaviour follows tokenizers/src/normalizers/{unicode,prepend,replace}.rs.
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace bench::tokenizer {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual void normalize(std::string& text) const = 0;
};

/// The normalizer a tokenizer.json describes; nullptr for `null` or an empty Sequence (both
/// leave text as it is). Throws TokenizerError naming a type or pattern it does not support.
std::unique_ptr<Normalizer> make_normalizer(const nlohmann::json& config);

}  // namespace bench::tokenizer
