// The replay of a recorded session tree (--trace-format weka) on a made-up trace
// (tests/data/traces/weka_tree.json): subagents spawned after their parent's reply and its
// recorded gap, the join held until each of them has ended, a background subagent that holds
// nothing up, capped and sped-up gaps, and a failed root ending the tree.
#include "bench/app/point/trace_tree_scheduler.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bench/workload/agent_trace.hpp"

namespace trace_tree_scheduler_test {

using bench::app::SessionEnd;
using bench::app::SessionPlan;
using bench::app::TraceTreeScheduler;
using bench::app::TurnOutcome;
using bench::app::TurnReply;
using bench::app::TurnToSend;

constexpr std::int64_t kS = 1'000'000'000;

SessionPlan tree_plan(std::uint64_t trees, double max_gap_s = 10.0, double speed = 1.0) {
  SessionPlan plan;
  plan.end = trees;
  plan.open_at_once = 1;
  plan.seed = 3;
  plan.trees =
      SessionPlan::Trees{std::make_shared<const std::vector<bench::workload::AgentTrace>>(
                             bench::workload::read_agent_traces(std::string(BENCH_TEST_DATA_DIR) +
                                                                "/traces/weka_tree.json")),
                         max_gap_s,
                         speed,
                         false,
                         0,
                         {}};
  return plan;
}

std::optional<SessionEnd> end_ok(TraceTreeScheduler& scheduler, const TurnToSend& turn,
                                 std::int64_t end_ns) {
  return scheduler.on_turn_end(turn, TurnOutcome::ok, TurnReply{}, end_ns);
}

TEST(TraceTreeScheduler, SpawnsSubagentsAfterTheirParentAndHoldsTheJoinUntilEachHasEnded) {
  TraceTreeScheduler scheduler(tree_plan(1));
  ASSERT_EQ(scheduler.next_due_ns(), 0);
  const TurnToSend root0 = scheduler.take(0);
  EXPECT_EQ(root0.branch, 0u);
  EXPECT_EQ(root0.turn, 0);
  EXPECT_EQ(root0.stream, std::optional<bool>(true));
  EXPECT_EQ(root0.cache_ceiling_tokens, 0);
  EXPECT_EQ(root0.user->output_len, 6);
  EXPECT_EQ(root0.history->words(), 40);
  EXPECT_EQ(scheduler.next_due_ns(), TraceTreeScheduler::kAwaitingReply);

  // Its reply ends at 1 s: both subagents are due 0.5 s later (their recorded spawn gap); the
  // root's next request is their join, not due yet.
  EXPECT_FALSE(end_ok(scheduler, root0, 1 * kS));
  EXPECT_EQ(scheduler.next_due_ns(), 1 * kS + kS / 2);
  const TurnToSend a0 = scheduler.take(1 * kS + kS / 2);
  const TurnToSend b0 = scheduler.take(1 * kS + kS / 2);
  EXPECT_EQ(a0.branch, 1u);
  EXPECT_EQ(b0.branch, 2u);
  EXPECT_EQ(a0.cache_ceiling_tokens, 0);   // a fresh head of its own
  EXPECT_EQ(b0.cache_ceiling_tokens, 16);  // the two blocks it shares with a0 (100, 101)
  EXPECT_EQ(scheduler.next_due_ns(), TraceTreeScheduler::kAwaitingReply);

  EXPECT_FALSE(end_ok(scheduler, b0, 2 * kS));  // b is done; a is not: the join still waits
  EXPECT_EQ(scheduler.next_due_ns(), TraceTreeScheduler::kAwaitingReply);
  EXPECT_FALSE(end_ok(scheduler, a0, 3 * kS));
  EXPECT_EQ(scheduler.next_due_ns(), 4 * kS);  // a1 after its 1 s gap
  const TurnToSend a1 = scheduler.take(4 * kS);
  EXPECT_EQ(a1.stream, std::optional<bool>(false));  // recorded as "n"
  EXPECT_EQ(a1.turn, 1);
  EXPECT_EQ(a1.cache_ceiling_tokens, 24);
  EXPECT_FALSE(end_ok(scheduler, a1, 5 * kS));

  // The join: 6 s after the root's reply (7 s), and 2 s after its last subagent ended (7 s).
  EXPECT_EQ(scheduler.next_due_ns(), 7 * kS);
  const TurnToSend root1 = scheduler.take(7 * kS);
  EXPECT_EQ(root1.branch, 0u);
  EXPECT_EQ(root1.turn, 1);
  EXPECT_EQ(root1.cache_ceiling_tokens, 40);  // request 0's 5 blocks
  EXPECT_FALSE(end_ok(scheduler, root1, 8 * kS));
  const TurnToSend root2 = scheduler.take(*scheduler.next_due_ns());
  EXPECT_EQ(root2.due_ns, 9 * kS);
  // The root's last reply: the tree waits on its background subagent, spawned 1 s later.
  EXPECT_FALSE(end_ok(scheduler, root2, 10 * kS));
  EXPECT_EQ(scheduler.next_due_ns(), 11 * kS);
  const TurnToSend c0 = scheduler.take(11 * kS);
  EXPECT_EQ(c0.branch, 3u);
  const std::optional<SessionEnd> end = end_ok(scheduler, c0, 12 * kS);
  ASSERT_TRUE(end);
  EXPECT_TRUE(end->completed());
  EXPECT_EQ(end->turns_completed, 3 + 2 + 1 + 1);
  EXPECT_EQ(end->start_ns, 0);
  EXPECT_EQ(end->end_ns, 12 * kS);
  EXPECT_EQ(scheduler.next_due_ns(), std::nullopt);
}

TEST(TraceTreeScheduler, GapsAreCappedThenSpedUpAndTheJoinTakesTheLaterOfItsTwoWaits) {
  // Cap 1.5 s, twice as fast: the spawn gap 0.25 s, the join max(1 + 0.75, a's end + 0.75).
  TraceTreeScheduler scheduler(tree_plan(1, 1.5, 2.0));
  const TurnToSend root0 = scheduler.take(0);
  end_ok(scheduler, root0, 1 * kS);
  EXPECT_EQ(scheduler.next_due_ns(), 1 * kS + kS / 4);
  const TurnToSend a0 = scheduler.take(1 * kS + kS / 4);
  const TurnToSend b0 = scheduler.take(1 * kS + kS / 4);
  end_ok(scheduler, b0, 2 * kS);
  end_ok(scheduler, a0, 2 * kS);
  EXPECT_EQ(scheduler.next_due_ns(), 2 * kS + kS / 2);  // a1: its 1 s gap, halved
  const TurnToSend a1 = scheduler.take(2 * kS + kS / 2);
  end_ok(scheduler, a1, 5 * kS);
  EXPECT_EQ(scheduler.next_due_ns(), 5 * kS + 3 * kS / 4);
}

TEST(TraceTreeScheduler, AFailedRootEndsItsTreeAndTheLaneStartsTheNext) {
  TraceTreeScheduler scheduler(tree_plan(2));
  const TurnToSend first = scheduler.take(0);
  EXPECT_EQ(first.session, 0u);
  const std::optional<SessionEnd> end =
      scheduler.on_turn_end(first, TurnOutcome::failed, TurnReply{}, 1 * kS);
  ASSERT_TRUE(end);
  EXPECT_TRUE(end->failed);
  EXPECT_FALSE(end->completed());
  // No subagent was spawned from the failed request; the next tree starts at once.
  EXPECT_EQ(scheduler.next_due_ns(), 1 * kS);
  const TurnToSend next = scheduler.take(1 * kS);
  EXPECT_EQ(next.session, 1u);
  EXPECT_EQ(next.branch, 0u);
  EXPECT_EQ(next.turn, 0);
  // Another replay of the trace: its head is cached, its own blocks are not.
  EXPECT_EQ(next.cache_ceiling_tokens, 16);
}

TEST(TraceTreeScheduler, AFailedSubagentFreesItsJoin) {
  TraceTreeScheduler scheduler(tree_plan(1));
  const TurnToSend root0 = scheduler.take(0);
  end_ok(scheduler, root0, 1 * kS);
  const TurnToSend a0 = scheduler.take(1 * kS + kS / 2);
  const TurnToSend b0 = scheduler.take(1 * kS + kS / 2);
  end_ok(scheduler, b0, 2 * kS);
  EXPECT_FALSE(scheduler.on_turn_end(a0, TurnOutcome::failed, TurnReply{}, 3 * kS));
  // a never sends a1; the join is due 6 s after the root's reply (7 s) and 2 s after a's end.
  EXPECT_EQ(scheduler.next_due_ns(), 7 * kS);
  EXPECT_EQ(scheduler.take(7 * kS).branch, 0u);
}

// Runs one replay to its end, every request ending 1 s after it is sent; returns the root's
// first measured request and whether a warm-up came before it.
std::pair<std::int64_t, bool> replay_whole(TraceTreeScheduler& scheduler) {
  std::int64_t first_measured = -1;
  bool warmed = false;
  std::int64_t now = 0;
  while (const std::optional<std::int64_t> due = scheduler.next_due_ns()) {
    now = std::max(now, *due);
    const TurnToSend turn = scheduler.take(now);
    if (turn.warmup) {
      EXPECT_FALSE(warmed);  // one warm-up, before anything measured
      EXPECT_EQ(first_measured, -1);
      EXPECT_EQ(turn.branch, 0u);
      warmed = true;
    } else if (turn.branch == 0 && first_measured < 0) {
      first_measured = turn.turn;
      if (warmed) {
        EXPECT_EQ(turn.cache_ceiling_tokens, 40 * (turn.turn == 1) + 56 * (turn.turn == 2));
      }
    }
    // Subagents spawned before the start are not replayed.
    if (turn.branch == 1 || turn.branch == 2) {
      EXPECT_EQ(first_measured, 0);
    }
    now += kS;
    if (scheduler.on_turn_end(turn, TurnOutcome::ok, TurnReply{}, now)) break;
  }
  return {first_measured, warmed};
}

TEST(TraceTreeScheduler, ARandomStartSendsTheRequestBeforeItAsWarmUpAndSkipsEarlierSubagents) {
  SessionPlan plan = tree_plan(24);
  plan.trees->start_at_random = true;
  TraceTreeScheduler scheduler(std::move(plan));
  std::vector<int> starts(3, 0);
  for (int tree = 0; tree < 24; ++tree) {
    const auto [first, warmed] = replay_whole(scheduler);
    ASSERT_GE(first, 0);
    ASSERT_LT(first, 3);
    EXPECT_EQ(warmed, first > 0);
    ++starts[static_cast<std::size_t>(first)];
  }
  for (int count : starts) EXPECT_GT(count, 0);  // every start is drawn
}

TEST(TraceTreeScheduler, LanesReplayTreesInTraceOrderEachOnce) {
  SessionPlan plan = tree_plan(3);
  plan.open_at_once = 2;
  TraceTreeScheduler scheduler(std::move(plan));
  const TurnToSend a = scheduler.take(0);
  const TurnToSend b = scheduler.take(0);
  EXPECT_EQ(a.session, 0u);
  EXPECT_EQ(b.session, 1u);
  const std::vector<SessionEnd> open = scheduler.open_sessions();
  ASSERT_EQ(open.size(), 2u);
  EXPECT_TRUE(open[0].cut_short);
}

}  // namespace trace_tree_scheduler_test
