#pragma once
// The "sharegpt" dataset: the standard ShareGPT JSON file (ShareGPT_V3_unfiltered_cleaned_
// split.json and files of its shape), a list of
//   {"conversations": [{"from": "human", "value": "..."}, {"from": "gpt", "value": "..."}, ...]}
// ("conversation" is read too, as SGLang does). Each conversation gives one request: its first
// human turn is the prompt, and the turn that answers it sets the output target (its length
// in words, or tokens with --tokenizer), unless --sharegpt-output-len fixes one for all.
//
// Filtering, in words (bench's proxy for tokens) or, with a tokenizer, in tokens as vLLM and
// SGLang count them, with vLLM's thresholds (is_valid_sequence, from the
// sample_sharegpt_requests of benchmark_serving.py; SGLang used the same ones):
//   dropped: fewer than 2 turns; prompt < 4; reply < 4 (not checked when the output length is
//   fixed); prompt > 1024; prompt + output > 2048.
// SGLang today drops only prompts or outputs under 2 tokens, and too-long items only when
// --sharegpt-context-len is given. vLLM and SGLang take turns 0 and 1 whoever speaks them;
// bench takes the first turn "from" "human" (or "user") and the first later turn from
// anyone else, so a conversation that opens with the model's turn still gives a real prompt.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/indexed_file.hpp"
#include "bench/workload/longest_request.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::workload {

// vLLM's thresholds, in words (tokens with a tokenizer).
inline constexpr std::int64_t kShareGptMinLen = 4;  // shorter prompts (and replies) dropped
inline constexpr std::int64_t kShareGptMaxPromptLen = 1024;  // longer prompts dropped
inline constexpr std::int64_t kShareGptMaxTotalLen = 2048;   // prompt + output; longer dropped

/// What happened to the file's entries; every entry is counted in exactly one field after
/// `entries`: entries == usable + malformed + too_few_turns + no_reply + too_short + too_long.
struct ShareGptStats {
  std::size_t entries = 0;        // elements of the top-level list
  std::size_t usable = 0;         // kept as a request
  std::size_t malformed = 0;      // not {"conversations": [{"from": str, "value": str}...]}
  std::size_t too_few_turns = 0;  // fewer than 2 turns
  std::size_t no_reply = 0;       // no human turn with a later turn answering it
  std::size_t too_short = 0;      // prompt (or reply) under kShareGptMinLen words (tokens)
  std::size_t too_long = 0;       // prompt over kShareGptMaxPromptLen, or total over
                                  // kShareGptMaxTotalLen
  LongestRequest longest;         // over the usable conversations, in their lengths' unit
};

/// A ShareGPT file, indexed: the byte ranges of its usable conversations, each read back and
/// parsed again when its request is due (indexed_file.hpp), so memory holds 16 bytes a
/// conversation, never their text. Which items a run sends, in which order, is the prompt
/// source's business (prompt_source.hpp: the seeded shuffle and vLLM's oversampling).
class ShareGptFile {
 public:
  /// Reads the file once (streamed: the DOM of the standard file is never built) and indexes
  /// its usable conversations. Throws DatasetError naming the file when it cannot be read, is
  /// not valid JSON (with nlohmann's line and column), is not a list, or has no usable
  /// conversation (with the counts of what was dropped and why); and std::invalid_argument
  /// naming --sharegpt-output-len when it is below 1. Reads path, sharegpt_output_len and
  /// sharegpt_context_len of the options (count, seed and shuffle are the prompt source's).
  /// With `tokenizer` (which outlives the file) lengths and limits are its tokens, and each
  /// prompt's client_tokens its count; without one, words.
  explicit ShareGptFile(DatasetOptions options, const tokenizer::Tokenizer* tokenizer = nullptr);

  /// Usable conversations (stats().usable).
  std::size_t size() const { return file_.size(); }
  const ShareGptStats& stats() const { return stats_; }
  /// Its longest usable request (stats().longest), in tokens with a tokenizer, else words.
  const LongestRequest& longest_request() const { return stats_.longest; }
  const DatasetOptions& options() const { return options_; }

  /// The request of usable conversation `item` (< size(), in file order). Safe from several
  /// threads at once.
  Prompt item(std::size_t item) const;

 private:
  DatasetOptions options_;
  const tokenizer::Tokenizer* tokenizer_;
  ShareGptStats stats_;
  IndexedFile file_;
};

/// "tokens" with a tokenizer, else "words": the unit of a file dataset's lengths.
std::string_view length_unit(const tokenizer::Tokenizer* tokenizer);

/// The length limits an item is dropped beyond, as the notes on the file say them, in `unit`.
std::string sharegpt_length_limits(const DatasetOptions& options, std::string_view unit = "words");

}  // namespace bench::workload
