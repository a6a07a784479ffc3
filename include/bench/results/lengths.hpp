#pragma once
// Length honesty: the lengths a run asked for (what was actually sent) beside what the server
// counted, and the flags and warnings when they differ. The issue behind it: peers' prompts
// arrive longer than asked (vllm#45423, gpustack#4560: a chat template adds tokens nobody
// counted), and --ignore-eos runs that end short go unnoticed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::results {

namespace key {
inline constexpr std::string_view input_len_unit = "input_len_unit";  // "tokens" | "words"
// What counted the tokens (the tokenizer's description: "server /tokenize (vLLM dialect)", a
// tokenizer.json's path and kind); null when lengths are words or token ids drawn.
inline constexpr std::string_view length_tokenizer = "length_tokenizer";
// Why lengths are words ("--tokenizer words", "shared-prefix counts words", no tokenizer found
// and where it was looked for); null when they are tokens.
inline constexpr std::string_view words_reason = "words_reason";
// Prompt tokens the chat template adds to each prompt, measured (null: not measured).
inline constexpr std::string_view chat_template_tokens = "chat_template_tokens";
// Special tokens (BOS) the tokenizer says a server adds to a completions prompt (its
// post_processor); null when not known, or on chat (there the template's measure holds them).
inline constexpr std::string_view prompt_special_tokens = "prompt_special_tokens";
// What the server should count per prompt: requested + the template unless it is included
// + the special tokens.
inline constexpr std::string_view expected_prompt_tokens = "expected_prompt_tokens";
inline constexpr std::string_view input_len_mismatch = "input_len_mismatch";    // bool | null
inline constexpr std::string_view output_len_mismatch = "output_len_mismatch";  // bool | null
// --tokenizer server: the requests bench sent to the server's /tokenize (or /apply-template)
// while the point's prompts were made, i.e. during its run, to the server under test; null
// with a tokenizer file or none.
inline constexpr std::string_view server_tokenize_requests = "server_tokenize_requests";
// With the server's tokenizer, the point's prompts are made before its clock starts: the
// /tokenize requests that took and its seconds, out of every figure; null otherwise.
inline constexpr std::string_view tokenize_requests_ahead = "tokenize_requests_ahead";
inline constexpr std::string_view prompts_ahead_s = "prompts_ahead_s";
}  // namespace key

/// The length check's keys whose value is a number or null (the results schema types them).
inline constexpr std::string_view kLengthFigureKeys[] = {
    key::chat_template_tokens,     key::prompt_special_tokens,   key::expected_prompt_tokens,
    key::server_tokenize_requests, key::tokenize_requests_ahead, key::prompts_ahead_s};

/// Differences up to this fraction of the expected length are not mismatches.
inline constexpr double kLengthTolerance = 0.02;

struct LengthFigures {
  bool tokens = false;       // lengths are tokens (a tokenizer, random-ids), else words
  std::string tokenizer;     // what counted them (key::length_tokenizer); empty: none
  std::string words_reason;  // why words (key::words_reason); empty with tokens
  std::optional<double> requested_input;       // mean requested input length (as sent); nullopt:
                                               // nothing was sent
  std::optional<double> template_tokens;       // chat template's tokens a prompt, when measured
  bool template_included = false;              // --input-len-includes-template
  std::optional<double> special_tokens;        // a completions prompt's BOS etc., when known
  std::optional<double> server_prompt_tokens;  // mean usage.prompt_tokens; nullopt: unknown
  std::optional<double> requested_output;      // mean max_tokens sent; nullopt: nothing sent
  std::optional<double> server_completion_tokens;  // mean usage.completion_tokens
  // With no usage: the mean of --tokenizer's counts of the streamed text, when every completed
  // request was counted so (a chunk estimate is no count to hold a length against).
  std::optional<double> tokenizer_completion_tokens;
  bool ignore_eos = false;  // every request should reach max_tokens
};

struct LengthCheck {
  nlohmann::json keys = nlohmann::json::object();  // the key:: entries above, for the results
  std::vector<std::string> warnings;               // one line each, for stderr
};

/// The keys and warnings for one run's lengths. A mismatch is a difference beyond
/// kLengthTolerance; output that overshoots max_tokens always is one, output that ends short
/// only with --ignore-eos (without it a model may stop early). Unknown server counts: null.
LengthCheck check_lengths(const LengthFigures& figures);

}  // namespace bench::results
