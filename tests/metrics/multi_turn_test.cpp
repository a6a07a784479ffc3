#include "bench/metrics/multi_turn.hpp"

#include <cstdint>
#include <memory>

#include <gtest/gtest.h>

namespace {

using bench::metrics::MultiTurnAccumulator;
using bench::metrics::RequestRecord;

RequestRecord turn_record(std::int64_t turn, double ttft_ms, std::int64_t prompt_tokens) {
  RequestRecord record;
  record.turn = turn;
  record.start_ns = 1'000'000;
  record.first_token_ns = record.start_ns + static_cast<std::int64_t>(ttft_ms * 1e6);
  record.prompt_tokens = prompt_tokens;
  return record;
}

TEST(MultiTurnAccumulator, GroupsTtftAndInputTokensByTurnAcrossMergedThreads) {
  MultiTurnAccumulator one;
  MultiTurnAccumulator two;
  one.add_turn(turn_record(0, 10, 100));
  two.add_turn(turn_record(0, 30, 120));
  one.add_turn(turn_record(2, 50, 300));
  RequestRecord failed = turn_record(2, 0, -1);
  failed.error = bench::metrics::ErrorClass::http_5xx;
  two.add_turn(failed);
  RequestRecord single = turn_record(-1, 99, 1);  // not a turn: ignored
  one.add_turn(single);
  one.merge(std::move(two));
  const auto summary = one.summarize();
  ASSERT_EQ(summary.by_turn.size(), 3u);
  EXPECT_EQ(summary.by_turn[0].turn, 1);
  EXPECT_EQ(summary.by_turn[0].requests, 2);
  EXPECT_DOUBLE_EQ(summary.by_turn[0].ttft_ms.mean, 20);
  EXPECT_DOUBLE_EQ(summary.by_turn[0].mean_input_tokens, 110);
  EXPECT_EQ(summary.by_turn[1].requests, 0);  // no turn 2 reached us: unknown, not 0
  EXPECT_EQ(summary.by_turn[1].ttft_ms.count, 0);
  EXPECT_LT(summary.by_turn[1].mean_input_tokens, 0);
  EXPECT_EQ(summary.by_turn[2].requests, 2);
  EXPECT_EQ(summary.by_turn[2].completed, 1);
  EXPECT_DOUBLE_EQ(summary.by_turn[2].mean_input_tokens, 300);
}

TEST(MultiTurnAccumulator, CountsSessionsByHowTheyEndedAndTimesTheCompletedOnes) {
  MultiTurnAccumulator sessions;
  sessions.add_session({true, false, 3, 2'000'000});
  sessions.add_session({true, false, 3, 4'000'000});
  sessions.add_session({false, true, 1, 9'000'000});
  sessions.add_session({false, false, 2, 9'000'000});
  const auto summary = sessions.summarize();
  EXPECT_EQ(summary.sessions_started, 4);
  EXPECT_EQ(summary.sessions_completed, 2);
  EXPECT_EQ(summary.sessions_failed, 1);
  EXPECT_EQ(summary.sessions_unfinished, 1);
  EXPECT_EQ(summary.turns_completed, 9);
  EXPECT_DOUBLE_EQ(summary.session_duration_ms.mean, 3);
  EXPECT_EQ(summary.session_duration_ms.count, 2);
}

TEST(MultiTurnAccumulator, BeyondTheRunsSampleBudgetItKeepsHistogramsNotEveryValue) {
  // 100 raw values for the whole run; 20,000 turns of TTFT 1..20,000 ms go past it.
  const auto budget = std::make_shared<bench::metrics::SampleBudget>(100);
  MultiTurnAccumulator turns(budget);
  for (int i = 1; i <= 20'000; ++i) turns.add_turn(turn_record(0, i, 10));
  EXPECT_LE(budget->used(), 100u);
  const auto summary = turns.summarize();
  const bench::metrics::Distribution& ttft = summary.by_turn.at(0).ttft_ms;
  EXPECT_EQ(ttft.count, 20'000);
  EXPECT_NEAR(ttft.mean, 10'000.5, 1e-6);  // exact beyond the budget too
  EXPECT_NEAR(ttft.median, 10'000.5, 10'000.5 * 0.0005);  // within the histogram's bound
  EXPECT_DOUBLE_EQ(ttft.max, 20'000);
}

}  // namespace
