#include "bench/metrics/tool_call_split.hpp"

namespace bench::metrics {

void ToolCallSplit::add(const RequestRecord& record) {
  if (!record.ok() || record.completion_tokens < 0) return;
  ++requests;
  output_tokens += record.completion_tokens;
  if (!record.called_tools()) return;
  ++tool_call_requests;
  tool_calls += record.tool_calls();
  tool_call_tokens += record.tool_call_tokens;
  count_token_source(record.tool_call_token_source, from_usage, from_tokenizer, from_chunks);
}

std::optional<double> ToolCallSplit::share_of_output() const {
  if (!any() || output_tokens <= 0) return std::nullopt;
  return static_cast<double>(tool_call_tokens) / static_cast<double>(output_tokens);
}

std::optional<double> ToolCallSplit::mean_tool_call_tokens() const {
  if (!any()) return std::nullopt;
  return static_cast<double>(tool_call_tokens) / static_cast<double>(tool_call_requests);
}

std::optional<std::string_view> tool_call_source_label(const ToolCallSplit& split) {
  if (!split.any()) return std::nullopt;
  return token_sources_label(split.from_usage, split.from_tokenizer, split.from_chunks);
}

}  // namespace bench::metrics
