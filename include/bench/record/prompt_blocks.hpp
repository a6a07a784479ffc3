#pragma once
// A prompt's blocks as a Weka-format trace gives them (weka_trace.hpp): the prompt cut into
// blocks of block_size units, each block named by a salted hash of the whole prompt up to its
// end, so two prompts have an equal block id exactly where they have an equal prefix (what a
// server's prefix cache reuses, and what the trace's readers assume of equal leading ids).
//
// The proxy cannot run the server's tokenizer, so a unit is what it can count honestly: a
// word by bench's word rule (util/words.hpp: what the simulator counts as a token), or a token
// of the tokenizer.json given (--tokenizer). A message's counted text is what the simulator
// counts of it (sim/prompt_counter.hpp with template none): its content (a string, or its
// parts' "text" joined by a newline) and its tool calls' names and arguments. The hash also
// takes each message's role where the message begins, so the same words in another role, or
// split into other messages, are another prefix; the request's "tools" are not counted (the
// word rule has no rendering of them: the server's count includes them, weka_trace.hpp
// reconciles the two).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::record {

struct PromptBlocks {
  std::int64_t units = 0;         // words (or tokens) counted in the whole prompt
  std::int64_t system_units = 0;  // of them, those of the leading system messages
  // One per whole block, in order: the salted hash of the prompt up to the block's end.
  std::vector<std::uint64_t> hashes;
};

/// The text of a message that counts (see above); "" for a message without any.
std::string message_text(const nlohmann::json& message);

class BlockHasher {
 public:
  /// `salt`: the recording's secret (never written); `tokenizer`: null for words, else it
  /// must outlive the hasher.
  BlockHasher(std::uint64_t salt, std::int64_t block_size, const tokenizer::Tokenizer* tokenizer);

  /// The blocks of `messages` (an array of message objects). Throws tokenizer::TokenizerError
  /// when the tokenizer cannot read a message.
  PromptBlocks blocks(const nlohmann::json& messages) const;
  /// The units of `text` (a reply's, when its response said nothing of its tokens).
  std::int64_t count(std::string_view text) const;
  /// "words" or "tokens": what a unit is.
  std::string_view unit() const { return tokenizer_ == nullptr ? "words" : "tokens"; }

 private:
  std::vector<std::uint64_t> unit_hashes(std::string_view text) const;

  std::uint64_t salt_;
  std::int64_t block_size_;
  const tokenizer::Tokenizer* tokenizer_;
};

}  // namespace bench::record
