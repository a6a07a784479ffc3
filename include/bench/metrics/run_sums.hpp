#pragma once
// The sums a RunAccumulator keeps beside RunSummary's counters, from which summarize() derives
// the means and Little's law. One list, visit(): merging accumulators (+=), a shard's saved
// state and its reading (results/shard_state.cpp) all go through it, so a new sum is its
// member and its one line in visit(), nothing else.
#include <cstdint>

namespace bench::metrics {

struct RunSums {
  std::int64_t busy_ns = 0;  // sum of E2E of measured, non-cancelled requests
  double requested_input_sum = 0, requested_output_sum = 0;  // of completed requests
  double sent_input_sum = 0, sent_output_sum = 0;            // requested, of every measured request
  double completion_tokens_sum = 0, prompt_tokens_sum = 0;   // as the server counted them
  std::int64_t completion_tokens_known = 0, prompt_tokens_known = 0;  // requests in those sums
  double client_prompt_tokens_sum = 0;  // as the run's tokenizer counted what was sent
  std::int64_t client_prompt_tokens_known = 0;

  /// visit(name, a.field, b.field, ...) for each field of the sums given, in one order; the
  /// names are the shard state's keys.
  template <typename Visit, typename... Sums>
  static void visit(Visit&& field, Sums&... sums) {
    field("busy_ns", sums.busy_ns...);
    field("requested_input_sum", sums.requested_input_sum...);
    field("requested_output_sum", sums.requested_output_sum...);
    field("sent_input_sum", sums.sent_input_sum...);
    field("sent_output_sum", sums.sent_output_sum...);
    field("completion_tokens_sum", sums.completion_tokens_sum...);
    field("prompt_tokens_sum", sums.prompt_tokens_sum...);
    field("completion_tokens_known", sums.completion_tokens_known...);
    field("prompt_tokens_known", sums.prompt_tokens_known...);
    field("client_prompt_tokens_sum", sums.client_prompt_tokens_sum...);
    field("client_prompt_tokens_known", sums.client_prompt_tokens_known...);
  }

  RunSums& operator+=(const RunSums& other) {
    visit([](const char*, auto& to, const auto& from) { to += from; }, *this, other);
    return *this;
  }
};

}  // namespace bench::metrics
