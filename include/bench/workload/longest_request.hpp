#pragma once
// The longest request a dataset can send, known when it is opened, before any request is drawn:
// what the run holds against the server's context length (max_model_len), so that a request
// that cannot fit is refused before the run rather than sent and refused a thousand times.
#include <algorithm>
#include <cstdint>

namespace bench::workload {

struct LongestRequest {
  // The request with the most prompt + max_tokens: its prompt and its max_tokens.
  std::int64_t prompt_len = 0;
  std::int64_t output_len = 0;
  std::int64_t longest_prompt = 0;  // the longest prompt of any request
  // Lengths are the run's tokenizer's tokens, else words. Prompts count their content only:
  // a chat template's tokens come on top.
  bool in_tokens = false;

  std::int64_t total_len() const { return prompt_len + output_len; }

  /// Takes one more request into account.
  void add(std::int64_t prompt, std::int64_t output) {
    longest_prompt = std::max(longest_prompt, prompt);
    if (prompt + output > total_len()) {
      prompt_len = prompt;
      output_len = output;
    }
  }
};

}  // namespace bench::workload
