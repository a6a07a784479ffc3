#pragma once
// The decoders of a tokenizer.json ("decoder"), which turn tokens back into text: ByteLevel
// (GPT-2's alphabet back to bytes), and the SentencePiece chain Replace("▁" -> " "),
// ByteFallback ("<0xNN>" tokens back to bytes), Fuse and Strip; Metaspace; Sequence.
// Behaviour follows tokenizers/src/decoders/*.rs and pre_tokenizers/byte_level.rs.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace bench::tokenizer {

class Decoder {
 public:
  virtual ~Decoder() = default;
  /// Rewrites the list of token texts (decode_chain); the caller joins what is left.
  virtual void decode(std::vector<std::string>& tokens) const = 0;
};

/// The decoder a tokenizer.json describes; nullptr for `null` (tokens are joined as they are).
/// Throws TokenizerError naming a type it does not support.
std::unique_ptr<Decoder> make_decoder(const nlohmann::json& config);

}  // namespace bench::tokenizer
