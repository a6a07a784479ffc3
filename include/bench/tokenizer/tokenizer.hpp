#pragma once
// What bench needs of a tokenizer, whoever implements it: a Hugging Face tokenizer.json read
// natively (no Python, no Rust), or the server's own /tokenize endpoint. Workloads ask it to
// make prompts of an exact token length; reports ask it to count what a stream without `usage`
// generated. Both implementations sit behind this one interface so that neither the workload
// nor the report knows which one it has.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bench::tokenizer {

using TokenId = std::int32_t;

/// Why a tokenizer could not be opened or could not answer: one line, naming the file or the
/// server and what is unsupported or wrong. Thrown inside the module; callers at the edge
/// (app) turn it into an exit code.
class TokenizerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  /// The ids of `text` as the model sees it as content: added tokens matched, but no special
  /// tokens added around the sequence (BOS/EOS belong to the template and are counted apart).
  virtual std::vector<TokenId> encode(std::string_view text) const = 0;

  /// The text of `ids`; decode(encode(x)) == x wherever the tokenizer itself round-trips.
  virtual std::string decode(const std::vector<TokenId>& ids) const = 0;

  /// How many tokens encode(text) makes.
  virtual std::size_t count(std::string_view text) const { return encode(text).size(); }

  /// The special tokens a server adds around one prompt when it encodes it with them, as
  /// vLLM's and llama.cpp's completions endpoints do (llama-2's BOS: 1); encode() leaves them
  /// out. nullopt when this tokenizer cannot say.
  virtual std::optional<std::size_t> added_special_tokens() const { return std::nullopt; }

  /// The special tokens' texts (BOS, EOS, chat markers), which prompts must never contain.
  virtual const std::vector<std::string>& special_tokens() const = 0;

  /// One line for stderr and the results: what this is, e.g.
  /// "tokenizer.json: byte-level BPE, 128256 tokens" or "server /tokenize (vLLM dialect)".
  virtual const std::string& description() const = 0;
};

}  // namespace bench::tokenizer
