// The reasoning/answer split of a run and TTFA, over hand-built records (docs/metrics.md,
// "Reasoning models"): output throughput stays all generated tokens, reasoning and answer are
// its parts, and a run where nothing reasoned has no reasoning figures at all.
#include "bench/metrics/reasoning_split.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "bench/metrics/run_summary.hpp"
#include "bench/util/clock.hpp"

namespace {

using bench::metrics::ReasoningSplit;
using bench::metrics::RequestRecord;
using bench::metrics::RunSummary;
using bench::metrics::summarize_run;
using bench::metrics::TokenSource;

using bench::kNsPerMs;

// A successful request from start_ms to end_ms: first text at first_ms, first answer text at
// answer_ms (-1: none), `completion` tokens of which `reasoning` were reasoning.
RequestRecord request(std::int64_t start_ms, std::int64_t first_ms, std::int64_t answer_ms,
                      std::int64_t end_ms, std::int64_t completion, std::int64_t reasoning,
                      TokenSource reasoning_source) {
  RequestRecord record;
  record.start_ns = record.intended_start_ns = start_ms * kNsPerMs;
  record.first_token_ns = first_ms * kNsPerMs;
  record.first_answer_ns = answer_ms < 0 ? -1 : answer_ms * kNsPerMs;
  record.text_chunk_ns = {record.first_token_ns};
  record.end_ns = end_ms * kNsPerMs;
  record.prompt_tokens = 10;
  record.prompt_token_source = TokenSource::usage;
  record.completion_tokens = completion;
  record.completion_token_source = TokenSource::usage;
  record.reasoning_tokens = reasoning;
  record.reasoning_token_source = reasoning_source;
  record.reasoning_chunks = reasoning_source == TokenSource::none ? 0 : 1;
  record.finish_reason = "stop";
  return record;
}

TEST(ReasoningSplit, SplitsOutputIntoReasoningAndAnswer) {
  // 0..1000 ms: 100 tokens (80 reasoning) and 50 tokens (20 reasoning, counted from chunks).
  const std::vector<RequestRecord> records = {
      request(0, 100, 500, 1000, 100, 80, TokenSource::usage),
      request(0, 200, 300, 1000, 50, 20, TokenSource::chunks),
  };
  const RunSummary s = summarize_run(records);
  EXPECT_DOUBLE_EQ(s.output_throughput, 150.0);  // all generated tokens
  EXPECT_DOUBLE_EQ(s.reasoning_output_throughput, 100.0);
  EXPECT_DOUBLE_EQ(s.answer_output_throughput, 50.0);
  EXPECT_EQ(s.reasoning.reasoning_requests, 2);
  EXPECT_EQ(s.reasoning.from_usage, 1);
  EXPECT_EQ(s.reasoning.from_chunks, 1);
  EXPECT_EQ(s.reasoning.mean_reasoning_tokens(), 50.0);
  EXPECT_EQ(s.reasoning.mean_answer_tokens(), 25.0);
  EXPECT_EQ(reasoning_source_label(s.reasoning), "mixed");
  // TTFT is the first token of any kind; TTFA the first answer token.
  EXPECT_DOUBLE_EQ(s.ttft_ms.mean, 150.0);
  EXPECT_DOUBLE_EQ(s.ttfa_ms.mean, 400.0);
  EXPECT_EQ(s.ttfa_ms.count, 2u);
}

TEST(ReasoningSplit, ARunWithoutReasoningHasNoReasoningFigures) {
  const std::vector<RequestRecord> records = {
      request(0, 100, 100, 1000, 100, 0, TokenSource::none),
  };
  const RunSummary s = summarize_run(records);
  EXPECT_FALSE(s.reasoning.any());
  EXPECT_EQ(s.reasoning.mean_reasoning_tokens(), std::nullopt);
  EXPECT_EQ(s.reasoning.mean_answer_tokens(), std::nullopt);
  EXPECT_EQ(reasoning_source_label(s.reasoning), std::nullopt);
}

TEST(ReasoningSplit, ReasoningSaidByUsageAloneCounts) {
  // The stream showed none, but usage counted 0 reasoning tokens: not a reasoning request.
  RequestRecord said_zero = request(0, 100, 100, 1000, 10, 0, TokenSource::usage);
  said_zero.reasoning_chunks = 0;
  ReasoningSplit split;
  split.add(said_zero);
  EXPECT_FALSE(split.any());
  // Usage counted hidden reasoning (OpenAI's reasoning models stream none of it).
  RequestRecord hidden = request(0, 100, 100, 1000, 10, 7, TokenSource::usage);
  hidden.reasoning_chunks = 0;
  split.add(hidden);
  EXPECT_TRUE(split.any());
  EXPECT_EQ(split.reasoning_tokens, 7);
  EXPECT_EQ(split.answer_tokens, 13);
  EXPECT_EQ(reasoning_source_label(split), "usage");
}

TEST(ReasoningSplit, LeavesOutFailedRequestsAndMergesLikeOneAccumulator) {
  RequestRecord failed = request(0, 100, 200, 1000, 10, 5, TokenSource::chunks);
  failed.error = bench::metrics::ErrorClass::truncated;
  ReasoningSplit alone;
  alone.add(failed);
  EXPECT_EQ(alone.requests, 0);
  // Merged as client threads' and shards' accumulators are (visit_counters).
  bench::metrics::RunAccumulator first;
  first.add(failed);
  first.add(request(0, 100, 200, 1000, 10, 5, TokenSource::chunks));
  bench::metrics::RunAccumulator second;
  second.add(request(0, 100, 200, 1000, 20, 4, TokenSource::tokenizer));
  first.merge(std::move(second));
  const ReasoningSplit a = first.summarize().reasoning;
  EXPECT_EQ(a.requests, 2);
  EXPECT_EQ(a.reasoning_tokens, 9);
  EXPECT_EQ(a.answer_tokens, 21);
  EXPECT_EQ(reasoning_source_label(a), "mixed");
}

}  // namespace
