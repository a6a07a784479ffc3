#pragma once
// The pre-tokenizers of a tokenizer.json ("pre_tokenizer"): they cut normalized text into the
// pieces BPE merges within, and may rewrite them (ByteLevel writes bytes in GPT-2's alphabet,
// Metaspace writes spaces as "▁"). Behaviour follows Hugging Face tokenizers'
// tokenizers/src/pre_tokenizers/{split,byte_level,metaspace,sequence}.rs.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace bench::tokenizer {

struct Piece {
  std::string text;
  bool starts_text = false;  // begins at offset 0 of the whole input (Metaspace "first")
};

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  /// Replaces `pieces` with their finer split.
  virtual void split(std::vector<Piece>& pieces) const = 0;
};

/// The pre-tokenizer a tokenizer.json describes; nullptr for `null`. Throws TokenizerError
/// naming the type or option it does not support.
std::unique_ptr<PreTokenizer> make_pre_tokenizer(const nlohmann::json& config);

}  // namespace bench::tokenizer
