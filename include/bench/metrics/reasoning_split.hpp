#pragma once
// The output tokens of a run split into reasoning and answer (docs/metrics.md, "Reasoning
// models"): a reasoning model spends part of its completion thinking (delta.reasoning_content
// or delta.reasoning) before the answer (delta.content). Output throughput stays all generated
// tokens; this says how much of it was which, and how each request's reasoning was counted.
#include <cstdint>
#include <optional>
#include <string_view>

#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

/// Sums over successful measured requests with a completion count; RunAccumulator feeds it.
struct ReasoningSplit {
  std::int64_t requests = 0;            // successful requests with known completion_tokens
  std::int64_t reasoning_requests = 0;  // of them, those that reasoned (RequestRecord::reasoned)
  std::int64_t reasoning_tokens = 0;    // sum of reasoning_tokens over `requests`
  std::int64_t answer_tokens = 0;       // sum of answer_tokens() over `requests`
  // How the reasoning requests' reasoning_tokens were known.
  std::int64_t from_usage = 0;      // usage.completion_tokens_details.reasoning_tokens
  std::int64_t from_tokenizer = 0;  // the run's tokenizer on the reasoning text
  std::int64_t from_chunks = 0;     // the count of reasoning chunks: an estimate

  /// Counts one successful request; others, and those without completion_tokens, are not.
  void add(const RequestRecord& record);
  /// Some request reasoned: only then are reasoning figures reported (else they are unknown,
  /// not 0: the server may reason without saying so).
  bool any() const { return reasoning_requests > 0; }
  /// Means over `requests` (so reasoning + answer = the mean completion tokens); nullopt
  /// unless any().
  std::optional<double> mean_reasoning_tokens() const;
  std::optional<double> mean_answer_tokens() const;
};

/// "usage", "tokenizer", "chunks_estimate", or "mixed", as token_count_source.output says it;
/// nullopt when no request reasoned.
std::optional<std::string_view> reasoning_source_label(const ReasoningSplit& split);

}  // namespace bench::metrics
