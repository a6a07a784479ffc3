#include "bench/metrics/agent_trees.hpp"

#include <cstdint>
#include <utility>

#include <gtest/gtest.h>

namespace {

using bench::metrics::AgentTreeAccumulator;
using bench::metrics::CacheCeiling;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;

constexpr std::int64_t kMs = 1'000'000;

// A tree's request: sent at `start_ms`, ended at `end_ms`, its first token 10 ms after the send.
RequestRecord agent_request(std::int64_t tree, std::int64_t branch, std::int64_t start_ms,
                            std::int64_t end_ms, std::int64_t prompt_tokens,
                            std::int64_t completion_tokens) {
  RequestRecord record;
  record.session = tree;
  record.branch = branch;
  record.turn = 0;
  record.start_ns = start_ms * kMs;
  record.first_token_ns = record.start_ns + 10 * kMs;
  record.end_ns = end_ms * kMs;
  record.prompt_tokens = prompt_tokens;
  record.completion_tokens = completion_tokens;
  return record;
}

RequestRecord with_cache(RequestRecord record, std::int64_t ceiling, std::int64_t cached) {
  record.cache_ceiling_tokens = ceiling;
  record.cached_prompt_tokens = cached;
  return record;
}

TEST(CacheCeiling, SumsTheCeilingBesideWhatTheServerSaidItServed) {
  CacheCeiling sums;
  sums.add(with_cache(agent_request(0, 0, 0, 100, 1000, 10), 0, 0));
  sums.add(with_cache(agent_request(0, 0, 100, 200, 2000, 10), 1000, 960));
  RequestRecord silent = with_cache(agent_request(0, 0, 200, 300, 1000, 10), 1000, -1);
  sums.add(silent);  // no count of the server's: in the ceiling, not in what it served
  RequestRecord failed = with_cache(agent_request(0, 0, 300, 400, 3000, 0), 2000, -1);
  failed.error = ErrorClass::http_5xx;
  sums.add(failed);
  sums.add(agent_request(0, 0, 400, 500, 500, 10));  // no ceiling: not a trace's request
  EXPECT_EQ(sums.requests, 3);
  EXPECT_EQ(sums.prompt_tokens, 4000);
  EXPECT_EQ(sums.ceiling_tokens, 2000);
  EXPECT_EQ(sums.disclosing_requests, 2);
  EXPECT_EQ(sums.cached_tokens, 960);
  EXPECT_DOUBLE_EQ(*sums.ceiling_share(), 0.5);
  EXPECT_DOUBLE_EQ(*sums.cached_share(), 960.0 / 3000);
  // Over the same two requests: the blocks allowed 1000 of 3000, the server served 960.
  EXPECT_NEAR(*sums.gap_share(), 40.0 / 3000, 1e-12);
  EXPECT_EQ(*sums.gap_tokens(), 40);
}

TEST(CacheCeiling, WhatNoServerSaidIsUnknownNotZero) {
  CacheCeiling sums;
  EXPECT_FALSE(sums.ceiling_share());
  sums.add(with_cache(agent_request(0, 0, 0, 100, 1000, 10), 500, -1));
  EXPECT_DOUBLE_EQ(*sums.ceiling_share(), 0.5);
  EXPECT_FALSE(sums.cached_share());
  EXPECT_FALSE(sums.gap_share());
  EXPECT_FALSE(sums.gap_tokens());
}

TEST(AgentTreeAccumulator, FoldsACompletedTreeAndEachOfItsSubagents) {
  AgentTreeAccumulator trees;
  // Root: 0-100 ms and 400-1000 ms; its subagent 1 runs 150-350 ms, subagent 2 200-300 ms.
  trees.add(agent_request(7, 0, 0, 100, 1000, 100));
  trees.add(agent_request(7, 1, 150, 250, 200, 20));
  trees.add(agent_request(7, 2, 200, 300, 300, 30));
  trees.add(agent_request(7, 1, 260, 350, 400, 20));
  trees.add(agent_request(7, 0, 400, 1000, 2000, 200));
  trees.end_tree(7, true);
  auto summary = trees.summarize();
  ASSERT_EQ(summary.tree_turns.count, 1);
  EXPECT_DOUBLE_EQ(summary.tree_turns.mean, 5);
  // 370 output and 3900 input tokens over the tree's one second.
  EXPECT_DOUBLE_EQ(summary.tree_output_throughput.mean, 370);
  EXPECT_DOUBLE_EQ(summary.tree_input_throughput.mean, 3900);
  ASSERT_EQ(summary.subagent_duration_ms.count, 2);
  EXPECT_DOUBLE_EQ(summary.subagent_duration_ms.max, 200);
  EXPECT_DOUBLE_EQ(summary.subagent_duration_ms.min, 100);
  EXPECT_DOUBLE_EQ(summary.subagent_turns.max, 2);
  // Subagent 1: 40 tokens over 0.2 s; subagent 2: 30 over 0.1 s.
  EXPECT_DOUBLE_EQ(summary.subagent_output_throughput.min, 200);
  EXPECT_DOUBLE_EQ(summary.subagent_output_throughput.max, 300);
  EXPECT_EQ(summary.root.requests, 2);
  EXPECT_EQ(summary.root.output_tokens, 300);
  EXPECT_EQ(summary.subagents.requests, 3);
  EXPECT_EQ(summary.subagents.output_tokens, 70);
  EXPECT_DOUBLE_EQ(summary.subagents.ttft_ms.median, 10);
}

TEST(AgentTreeAccumulator, ATreeThatDidNotCompleteHasNoEndToEndFigures) {
  AgentTreeAccumulator trees;
  trees.add(agent_request(1, 0, 0, 100, 1000, 100));
  RequestRecord failed = agent_request(1, 0, 200, 300, 2000, -1);
  failed.error = ErrorClass::context_overflow;
  trees.add(failed);
  trees.end_tree(1, false);
  trees.add(agent_request(2, 0, 0, 100, 1000, 100));
  trees.end_tree(2, false);  // cut short by the run's end
  auto summary = trees.summarize();
  EXPECT_EQ(summary.tree_turns.count, 0);
  EXPECT_EQ(summary.subagent_duration_ms.count, 0);
  // Its requests still count as requests.
  EXPECT_EQ(summary.root.requests, 3);
  EXPECT_EQ(summary.root.completed, 2);
}

TEST(AgentTreeAccumulator, ATreeWithAnUnknownCountHasNoRateOfThatKind) {
  AgentTreeAccumulator trees;
  trees.add(agent_request(3, 0, 0, 500, -1, 100));  // the server gave no prompt_tokens
  trees.add(agent_request(3, 0, 500, 1000, 1000, 100));
  trees.end_tree(3, true);
  auto summary = trees.summarize();
  EXPECT_EQ(summary.tree_turns.count, 1);
  EXPECT_DOUBLE_EQ(summary.tree_output_throughput.mean, 200);
  EXPECT_EQ(summary.tree_input_throughput.count, 0);
}

TEST(AgentTreeAccumulator, WarmUpAndRequestsOfNoTreeAreLeftOut) {
  AgentTreeAccumulator trees;
  RequestRecord warmup = with_cache(agent_request(0, 0, 0, 100, 1000, 10), 500, 500);
  warmup.warmup = true;
  trees.add(warmup);
  RequestRecord plain = with_cache(agent_request(0, 0, 0, 100, 1000, 10), 500, 500);
  plain.session = -1;
  plain.branch = -1;
  trees.add(plain);
  auto summary = trees.summarize();
  EXPECT_EQ(summary.root.requests, 0);
  EXPECT_EQ(summary.cache_ceiling.requests, 0);
}

TEST(AgentTreeAccumulator, ThreadsMergeAfterJoin) {
  AgentTreeAccumulator one;
  AgentTreeAccumulator two;
  one.add(with_cache(agent_request(0, 0, 0, 1000, 1000, 100), 0, 0));
  one.end_tree(0, true);
  two.add(with_cache(agent_request(1, 0, 0, 500, 1000, 100), 640, 640));
  two.add(agent_request(1, 1, 100, 200, 100, 10));
  two.end_tree(1, true);
  one.merge(std::move(two));
  auto summary = one.summarize();
  EXPECT_EQ(summary.tree_turns.count, 2);
  EXPECT_DOUBLE_EQ(summary.tree_output_throughput.min, 100);
  EXPECT_DOUBLE_EQ(summary.tree_output_throughput.max, 220);
  EXPECT_EQ(summary.subagent_turns.count, 1);
  EXPECT_EQ(summary.root.requests, 2);
  EXPECT_EQ(summary.subagents.requests, 1);
  EXPECT_EQ(summary.cache_ceiling.ceiling_tokens, 640);
  EXPECT_EQ(summary.cache_ceiling.cached_tokens, 640);
}

}  // namespace
