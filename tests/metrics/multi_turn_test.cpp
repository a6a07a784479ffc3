#include "bench/metrics/multi_turn.hpp"
#include "bench/metrics/multi_turn_state.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

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

TEST(MultiTurnAccumulator, SplitsEachTurnsInputIntoCachedAndComputedWhereTheServerSaid) {
  MultiTurnAccumulator turns;
  RequestRecord first = turn_record(0, 10, 100);
  first.cached_prompt_tokens = 0;
  RequestRecord second = turn_record(1, 10, 200);
  second.cached_prompt_tokens = 96;
  RequestRecord silent = turn_record(1, 10, 220);  // its server did not say: not a 0
  turns.add_turn(first);
  turns.add_turn(second);
  turns.add_turn(silent);
  turns.add_turn(turn_record(2, 10, 300));
  const auto summary = turns.summarize();
  EXPECT_DOUBLE_EQ(summary.by_turn[0].mean_cached_input_tokens, 0);
  EXPECT_DOUBLE_EQ(summary.by_turn[0].mean_computed_input_tokens, 100);
  EXPECT_DOUBLE_EQ(summary.by_turn[1].mean_cached_input_tokens, 96);
  EXPECT_DOUBLE_EQ(summary.by_turn[1].mean_computed_input_tokens, 104);
  EXPECT_DOUBLE_EQ(summary.by_turn[1].mean_input_tokens, 210);  // every known count
  EXPECT_LT(summary.by_turn[2].mean_cached_input_tokens, 0);
  EXPECT_LT(summary.by_turn[2].mean_computed_input_tokens, 0);
}

TEST(MultiTurnAccumulator, GroupsTtftByContextBandsThatDouble) {
  EXPECT_EQ(bench::metrics::context_band(0), 0u);
  EXPECT_EQ(bench::metrics::context_band(127), 0u);
  EXPECT_EQ(bench::metrics::context_band(128), 1u);
  EXPECT_EQ(bench::metrics::context_band(255), 1u);
  EXPECT_EQ(bench::metrics::context_band(256), 2u);
  EXPECT_EQ(bench::metrics::context_band_bounds(0),
            (std::pair<std::int64_t, std::int64_t>{0, 128}));
  EXPECT_EQ(bench::metrics::context_band_bounds(3),
            (std::pair<std::int64_t, std::int64_t>{512, 1024}));
  MultiTurnAccumulator turns;
  turns.add_turn(turn_record(0, 10, 100));
  RequestRecord cached = turn_record(3, 20, 600);
  cached.cached_prompt_tokens = 512;
  turns.add_turn(cached);
  turns.add_turn(turn_record(4, 40, 1000));
  turns.add_turn(turn_record(5, 99, -1));  // no prompt count: in no band
  const auto summary = turns.summarize();
  ASSERT_EQ(summary.by_context.size(), 2u);  // empty bands are left out
  EXPECT_EQ(summary.by_context[0].low_tokens, 0);
  EXPECT_EQ(summary.by_context[0].completed, 1);
  EXPECT_DOUBLE_EQ(summary.by_context[0].ttft_ms.mean, 10);
  EXPECT_EQ(summary.by_context[1].low_tokens, 512);
  EXPECT_EQ(summary.by_context[1].high_tokens, 1024);
  EXPECT_EQ(summary.by_context[1].completed, 2);
  EXPECT_DOUBLE_EQ(summary.by_context[1].ttft_ms.mean, 30);
  EXPECT_DOUBLE_EQ(summary.by_context[1].mean_input_tokens, 800);
  EXPECT_DOUBLE_EQ(summary.by_context[1].mean_cached_input_tokens, 512);  // of those that said
}

TEST(MultiTurnAccumulator, CountsSessionsByHowTheyEndedAndTimesTheCompletedOnes) {
  MultiTurnAccumulator sessions;
  sessions.add_session({true, false, 3, 2'000'000});
  sessions.add_session({true, false, 3, 4'000'000});
  sessions.add_session({false, true, 1, 9'000'000});
  sessions.add_session({false, false, 2, 9'000'000});
  const auto summary = sessions.summarize();
  EXPECT_EQ(summary.sessions.started, 4);
  EXPECT_EQ(summary.sessions.completed, 2);
  EXPECT_EQ(summary.sessions.failed, 1);
  EXPECT_EQ(summary.sessions.unfinished, 1);
  EXPECT_EQ(summary.sessions.turns_completed, 9);
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
  EXPECT_NEAR(ttft.mean, 10'000.5, 1e-6);                 // exact beyond the budget too
  EXPECT_NEAR(ttft.median, 10'000.5, 10'000.5 * 0.0005);  // within the histogram's bound
  EXPECT_DOUBLE_EQ(ttft.max, 20'000);
}

// Two shards' worth of turns and sessions: `offset` makes their values differ.
MultiTurnAccumulator filled(double offset, std::shared_ptr<bench::metrics::SampleBudget> budget) {
  MultiTurnAccumulator out(std::move(budget));
  for (int i = 0; i < 50; ++i) {
    RequestRecord record = turn_record(i % 3, offset + i, 100 + 40 * (i % 3));
    if (i % 2 == 0) record.cached_prompt_tokens = 16 * (i % 3);
    out.add_turn(record);
    if (i % 3 != 2) continue;
    out.add_session({true, false, 3, static_cast<std::int64_t>((offset + i) * 1e6)});
  }
  RequestRecord failed = turn_record(1, 0, -1);
  failed.error = bench::metrics::ErrorClass::http_5xx;
  out.add_turn(failed);
  out.add_session({false, true, 1, 1'000'000});
  out.add_session({false, false, 2, 1'000'000});
  return out;
}

void expect_same(const bench::metrics::Distribution& a, const bench::metrics::Distribution& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_DOUBLE_EQ(a.mean, b.mean);
  EXPECT_DOUBLE_EQ(a.median, b.median);
  EXPECT_DOUBLE_EQ(a.p99, b.p99);
  EXPECT_DOUBLE_EQ(a.max, b.max);
}

void expect_same(const bench::metrics::MultiTurnSummary& a,
                 const bench::metrics::MultiTurnSummary& b) {
  ASSERT_EQ(a.by_turn.size(), b.by_turn.size());
  for (std::size_t i = 0; i < a.by_turn.size(); ++i) {
    EXPECT_EQ(a.by_turn[i].turn, b.by_turn[i].turn);
    EXPECT_EQ(a.by_turn[i].requests, b.by_turn[i].requests);
    EXPECT_EQ(a.by_turn[i].completed, b.by_turn[i].completed);
    EXPECT_DOUBLE_EQ(a.by_turn[i].mean_input_tokens, b.by_turn[i].mean_input_tokens);
    EXPECT_DOUBLE_EQ(a.by_turn[i].mean_cached_input_tokens, b.by_turn[i].mean_cached_input_tokens);
    EXPECT_DOUBLE_EQ(a.by_turn[i].mean_computed_input_tokens,
                     b.by_turn[i].mean_computed_input_tokens);
    expect_same(a.by_turn[i].ttft_ms, b.by_turn[i].ttft_ms);
  }
  ASSERT_EQ(a.by_context.size(), b.by_context.size());
  for (std::size_t i = 0; i < a.by_context.size(); ++i) {
    EXPECT_EQ(a.by_context[i].low_tokens, b.by_context[i].low_tokens);
    EXPECT_EQ(a.by_context[i].completed, b.by_context[i].completed);
    EXPECT_DOUBLE_EQ(a.by_context[i].mean_input_tokens, b.by_context[i].mean_input_tokens);
    EXPECT_DOUBLE_EQ(a.by_context[i].mean_cached_input_tokens,
                     b.by_context[i].mean_cached_input_tokens);
    expect_same(a.by_context[i].ttft_ms, b.by_context[i].ttft_ms);
  }
  EXPECT_EQ(a.sessions.started, b.sessions.started);
  EXPECT_EQ(a.sessions.completed, b.sessions.completed);
  EXPECT_EQ(a.sessions.failed, b.sessions.failed);
  EXPECT_EQ(a.sessions.unfinished, b.sessions.unfinished);
  EXPECT_EQ(a.sessions.turns_completed, b.sessions.turns_completed);
  expect_same(a.session_duration_ms, b.session_duration_ms);
}

TEST(MultiTurnAccumulator, ItsStateRestoresTheSameFiguresExactOrAsHistograms) {
  // A budget of 1,000 keeps every value; one of 10 sends the distributions to histograms.
  for (std::uint64_t values : {std::uint64_t{1'000}, std::uint64_t{10}}) {
    MultiTurnAccumulator original =
        filled(0, std::make_shared<bench::metrics::SampleBudget>(values));
    const bench::metrics::MultiTurnState state = original.state();
    EXPECT_EQ(state.turns.at(0).ttft_ms.exact, values > 10);
    std::optional<MultiTurnAccumulator> restored = MultiTurnAccumulator::from_state(state);
    ASSERT_TRUE(restored.has_value());
    expect_same(restored->summarize(), original.summarize());
  }
}

TEST(MultiTurnAccumulator, ShardsRestoredFromTheirStatesMergeAsTheirThreadsWould) {
  MultiTurnAccumulator short_shard;  // saw turn 1 only: still lines up by turn
  short_shard.add_turn(turn_record(0, 3, 90));
  MultiTurnAccumulator whole;
  for (double offset : {0.0, 7.5}) {
    std::optional<MultiTurnAccumulator> part =
        MultiTurnAccumulator::from_state(filled(offset, nullptr).state());
    ASSERT_TRUE(part.has_value());
    whole.merge(std::move(*part));
  }
  whole.merge(std::move(*MultiTurnAccumulator::from_state(short_shard.state())));
  MultiTurnAccumulator direct = filled(0, nullptr);
  direct.merge(filled(7.5, nullptr));
  direct.merge(std::move(short_shard));
  const auto summary = whole.summarize();
  expect_same(summary, direct.summarize());
  EXPECT_EQ(summary.by_context.size(), 2u);  // 100 and 140 tokens, then 180
  EXPECT_GE(summary.by_turn.at(1).mean_cached_input_tokens, 0);
  EXPECT_EQ(summary.sessions.started, 2 * (16 + 2));
  EXPECT_EQ(summary.by_turn.at(0).requests, 2 * 17 + 1);
  EXPECT_EQ(summary.by_turn.at(1).requests, 2 * 18);
}

TEST(MultiTurnAccumulator, AStateWithAnInvalidHistogramIsRefused) {
  MultiTurnAccumulator accumulator = filled(0, std::make_shared<bench::metrics::SampleBudget>(10));
  bench::metrics::MultiTurnState state = accumulator.state();
  ASSERT_FALSE(state.turns.at(2).ttft_ms.exact);
  state.turns.at(2).ttft_ms.histogram.count += 1;  // no longer the buckets' sum
  EXPECT_FALSE(MultiTurnAccumulator::from_state(state).has_value());
}

}  // namespace
