#include "bench/metrics/reasoning_split.hpp"

namespace bench::metrics {

namespace {

std::optional<double> mean_over(std::int64_t sum, std::int64_t count, bool known) {
  if (!known || count <= 0) return std::nullopt;
  return static_cast<double>(sum) / static_cast<double>(count);
}

}  // namespace

void ReasoningSplit::add(const RequestRecord& record) {
  if (!record.ok() || record.completion_tokens < 0) return;
  ++requests;
  reasoning_tokens += record.reasoning_tokens;
  answer_tokens += record.answer_tokens();
  if (!record.reasoned()) return;
  ++reasoning_requests;
  count_token_source(record.reasoning_token_source, from_usage, from_tokenizer, from_chunks);
}

std::optional<double> ReasoningSplit::mean_reasoning_tokens() const {
  return mean_over(reasoning_tokens, requests, any());
}

std::optional<double> ReasoningSplit::mean_answer_tokens() const {
  return mean_over(answer_tokens, requests, any());
}

std::optional<std::string_view> reasoning_source_label(const ReasoningSplit& split) {
  if (!split.any()) return std::nullopt;
  return token_sources_label(split.from_usage, split.from_tokenizer, split.from_chunks);
}

}  // namespace bench::metrics
