#include "bench/workload/trace_prompts.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/workload/prompt_source.hpp"
#include "bench/workload/random_prompts.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kBlockStream = 0x626c6f636bULL;  // "block"

// `length` words (tokens with a tokenizer) beginning with `index`, drawn from `seed`: a random
// prompt's text (its words are a prefix of the longer ones, so a block cut short is the start
// of the whole block).
std::string words_of(std::uint64_t seed, std::int64_t length, std::uint64_t index,
                     const TokenLengths& tokens) {
  const RandomPromptOptions options{0, length, 1, seed, 0.0};
  if (tokens.tokenizer == nullptr) return random_prompt(options, index).text;
  // The trace's lengths are the prompt's own: no chat template is taken off them.
  return token_exact_prompt(options, index, TokenLengths{tokens.tokenizer, 0}).text;
}

void append_part(std::string& text, const std::string& part) {
  if (!text.empty()) text += ' ';
  text += part;
}

}  // namespace

Prompt trace_prompt(const TraceRow& row, const std::vector<std::int64_t>& hash_ids,
                    std::uint64_t seed, std::uint64_t stream, std::uint64_t request,
                    const TokenLengths& tokens) {
  Prompt prompt;
  prompt.input_len = row.input_len;
  prompt.output_len = row.output_len;
  const std::uint64_t block_seed = detail::stream_seed(seed ^ kBlockStream, stream);
  std::int64_t left = row.input_len;
  for (const std::int64_t id : hash_ids) {
    if (left <= 0) break;
    const std::int64_t length = std::min(left, kTraceBlockTokens);
    // Named by stream and id (the prompt index's layout), so no other stream's block begins alike.
    const std::uint64_t block = prompt_index(stream, static_cast<std::uint64_t>(id));
    append_part(prompt.text, words_of(block_seed, length, block, tokens));
    left -= length;
  }
  if (left > 0) {
    append_part(prompt.text, words_of(detail::stream_seed(seed, stream), left, request, tokens));
  }
  if (tokens.tokenizer != nullptr) {
    try {
      prompt.client_tokens = static_cast<std::int64_t>(tokens.tokenizer->count(prompt.text));
    } catch (const tokenizer::TokenizerError&) {
      prompt.client_tokens = -1;  // sent as made; the report shows the server's count beside it
    }
  }
  return prompt;
}

}  // namespace bench::workload
