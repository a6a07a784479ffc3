#pragma once
// The output tokens of a run that went to tool calls (docs/metrics.md, "Tool calls"): an agent's
// model answers with delta.tool_calls (a function name, then argument fragments) instead of
// text. Output throughput stays all generated tokens; this says how much of it was tool calls,
// how many calls were made, and how each request's tool-call tokens were counted.
#include <cstdint>
#include <optional>
#include <string_view>

#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

/// Sums over successful measured requests with a completion count; RunAccumulator feeds it.
struct ToolCallSplit {
  std::int64_t requests = 0;            // successful requests with known completion_tokens
  std::int64_t output_tokens = 0;       // sum of their completion_tokens (the share's base)
  std::int64_t tool_call_requests = 0;  // of them, those whose answer held a tool call
  std::int64_t tool_calls = 0;          // calls started (RequestRecord::tool_calls())
  std::int64_t tool_call_tokens = 0;    // sum of tool_call_tokens
  // How the tool-calling requests' tool_call_tokens were known.
  std::int64_t from_usage = 0;      // usage's completion less reasoning, no content streamed
  std::int64_t from_tokenizer = 0;  // the run's tokenizer on the calls' names and arguments
  std::int64_t from_chunks = 0;     // the count of tool-call chunks: an estimate

  /// Counts one successful request; others, and those without completion_tokens, are not.
  void add(const RequestRecord& record);
  /// Some request called a tool: only then are tool-call figures reported (else unknown).
  bool any() const { return tool_call_requests > 0; }
  /// tool_call_tokens / output_tokens; nullopt unless any().
  std::optional<double> share_of_output() const;
  /// Mean tool-call tokens of a request that called tools; nullopt unless any().
  std::optional<double> mean_tool_call_tokens() const;
};

/// "usage", "tokenizer", "chunks_estimate", or "mixed", as token_count_source.output says it;
/// nullopt when no request called a tool.
std::optional<std::string_view> tool_call_source_label(const ToolCallSplit& split);

}  // namespace bench::metrics
