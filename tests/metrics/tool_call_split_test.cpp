// The tool-call part of a run's output, over hand-built records (docs/metrics.md, "Tool calls"):
// counted only over successful requests with a completion count, merged shard by shard to the
// same sums, and unknown (not 0) when no request called a tool.
#include "bench/metrics/tool_call_split.hpp"
#include "bench/metrics/run_summary.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::TokenSource;
using bench::metrics::ToolCallSplit;

RequestRecord answered(std::int64_t completion, std::vector<std::string> calls,
                       std::int64_t tool_tokens, TokenSource source) {
  RequestRecord record;
  record.completion_tokens = completion;
  record.completion_token_source = TokenSource::usage;
  record.tool_call_chunks = calls.empty() ? 0 : 3;
  record.tool_call_names = std::move(calls);
  record.tool_call_tokens = tool_tokens;
  record.tool_call_token_source = source;
  return record;
}

TEST(ToolCallSplit, CountsCallsTokensShareAndSources) {
  ToolCallSplit split;
  split.add(answered(50, {"get_weather"}, 50, TokenSource::usage));
  split.add(answered(30, {"a", "b"}, 20, TokenSource::tokenizer));
  split.add(answered(20, {}, 0, TokenSource::none));
  RequestRecord failed = answered(10, {"x"}, 10, TokenSource::usage);
  failed.error = ErrorClass::truncated;
  split.add(failed);
  EXPECT_EQ(split.requests, 3);
  EXPECT_EQ(split.output_tokens, 100);
  EXPECT_EQ(split.tool_call_requests, 2);
  EXPECT_EQ(split.tool_calls, 3);
  EXPECT_EQ(split.tool_call_tokens, 70);
  EXPECT_DOUBLE_EQ(split.share_of_output().value(), 0.7);
  EXPECT_DOUBLE_EQ(split.mean_tool_call_tokens().value(), 35.0);
  EXPECT_EQ(bench::metrics::tool_call_source_label(split), "mixed");
}

TEST(ToolCallSplit, MergedShardsGiveTheWholeRunsSums) {
  ToolCallSplit whole;
  const RequestRecord a = answered(40, {"f"}, 40, TokenSource::chunks);
  const RequestRecord b = answered(60, {}, 0, TokenSource::none);
  whole.add(a);
  whole.add(b);
  // Merged as client threads' and shards' accumulators are (visit_counters).
  bench::metrics::RunAccumulator one, two;
  one.add(a);
  two.add(b);
  one.merge(std::move(two));
  const ToolCallSplit first = one.summarize().tool_calls;
  EXPECT_EQ(first.requests, whole.requests);
  EXPECT_EQ(first.output_tokens, whole.output_tokens);
  EXPECT_EQ(first.tool_call_tokens, whole.tool_call_tokens);
  EXPECT_EQ(first.from_chunks, 1);
  EXPECT_EQ(bench::metrics::tool_call_source_label(first), "chunks_estimate");
}

TEST(ToolCallSplit, NothingIsKnownWithoutAToolCall) {
  ToolCallSplit split;
  split.add(answered(40, {}, 0, TokenSource::none));
  EXPECT_FALSE(split.any());
  EXPECT_FALSE(split.share_of_output());
  EXPECT_FALSE(split.mean_tool_call_tokens());
  EXPECT_FALSE(bench::metrics::tool_call_source_label(split));
}

}  // namespace
