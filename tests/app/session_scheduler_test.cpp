#include "bench/app/point/session_scheduler.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::app::SessionEnd;
using bench::app::SessionPlan;
using bench::app::SessionScheduler;
using bench::app::TurnOutcome;
using bench::app::TurnToSend;
using bench::workload::UserTurn;

constexpr std::int64_t kMs = 1'000'000;

// A reply in text alone, of unknown prompt length.
bench::app::TurnReply text_reply(std::string text) {
  bench::app::TurnReply reply;
  reply.text = std::move(text);
  return reply;
}

// Sessions of `turns` turns, their text naming session and turn; a fixed think time.
SessionPlan plan_of(std::uint64_t sessions, std::size_t open, std::int64_t turns,
                    double think_s = 0.5) {
  SessionPlan plan;
  plan.end = sessions;
  plan.open_at_once = open;
  plan.think_time.a_s = think_s;
  plan.turns_of = [turns](std::uint64_t session) {
    std::vector<UserTurn> out;
    for (std::int64_t k = 0; k < turns; ++k) {
      out.push_back(UserTurn{"s" + std::to_string(session) + "t" + std::to_string(k), 1, 4});
    }
    return out;
  };
  return plan;
}

TEST(SessionScheduler, OpensItsSessionsAtOnceAndWaitsOnRepliesWithoutSayingItIsDone) {
  SessionScheduler scheduler(plan_of(3, 2, 2));
  EXPECT_EQ(scheduler.next_due_ns(), 0);
  const TurnToSend a = scheduler.take(1 * kMs);
  EXPECT_EQ(scheduler.next_due_ns(), 0);
  const TurnToSend b = scheduler.take(1 * kMs);
  EXPECT_EQ(a.session, 0u);
  EXPECT_EQ(b.session, 1u);
  EXPECT_EQ(a.turn, 0);
  // Both in flight, more turns to come: not "nothing left", or the engine's loop would end.
  EXPECT_EQ(scheduler.next_due_ns(), SessionScheduler::kAwaitingReply);
  EXPECT_FALSE(scheduler.on_turn_end(a, TurnOutcome::ok, text_reply("reply a0"), 10 * kMs));
  EXPECT_EQ(scheduler.next_due_ns(), 10 * kMs + 500 * kMs);  // the reply's end + think time
}

TEST(SessionScheduler, EachTurnCarriesTheHistoryWithTheRepliesReceivedVerbatim) {
  SessionScheduler scheduler(plan_of(1, 1, 3, 0));
  TurnToSend turn = scheduler.take(0);
  EXPECT_EQ(turn.history->transcript(), "s0t0");
  scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply(" first reply"), 5 * kMs);
  ASSERT_EQ(scheduler.next_due_ns(), 5 * kMs);  // no think time
  turn = scheduler.take(5 * kMs);
  EXPECT_EQ(turn.turn, 1);
  EXPECT_EQ(turn.user->text, "s0t1");
  const nlohmann::json messages = turn.history->chat_messages();
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[1]["role"], "assistant");
  EXPECT_EQ(messages[1]["content"], " first reply");
  EXPECT_EQ(messages[2]["content"], "s0t1");
}

TEST(SessionScheduler, AFailedTurnEndsItsSessionAndTheNextSessionOpensAtItsEnd) {
  SessionScheduler scheduler(plan_of(2, 1, 3));
  const TurnToSend first = scheduler.take(2 * kMs);
  const std::optional<SessionEnd> ended =
      scheduler.on_turn_end(first, TurnOutcome::failed, text_reply(""), 7 * kMs);
  ASSERT_TRUE(ended);
  EXPECT_TRUE(ended->failed);
  EXPECT_FALSE(ended->completed());
  EXPECT_EQ(ended->turns_completed, 0);
  EXPECT_EQ(scheduler.next_due_ns(), 7 * kMs);  // session 1, at once: it held no think time
  EXPECT_EQ(scheduler.take(7 * kMs).session, 1u);
}

TEST(SessionScheduler, ACompletedSessionReportsItsDurationAndAllEndedSaysNoneLeft) {
  SessionScheduler scheduler(plan_of(1, 4, 2, 0.1));
  TurnToSend turn = scheduler.take(3 * kMs);
  EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply("r"), 10 * kMs));
  turn = scheduler.take(110 * kMs);
  const std::optional<SessionEnd> ended =
      scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply("r"), 150 * kMs);
  ASSERT_TRUE(ended);
  EXPECT_TRUE(ended->completed());
  EXPECT_EQ(ended->end_ns - ended->start_ns, 147 * kMs);
  EXPECT_EQ(scheduler.next_due_ns(), std::nullopt);
  EXPECT_EQ(scheduler.sessions_opened(), 1u);
}

TEST(SessionScheduler, ACancelledTurnCutsItsSessionShortAndOpenSessionsAreReportedSo) {
  SessionScheduler scheduler(plan_of(4, 2, 2));
  const TurnToSend a = scheduler.take(0);
  const TurnToSend b = scheduler.take(0);
  const std::optional<SessionEnd> cut =
      scheduler.on_turn_end(a, TurnOutcome::cancelled, text_reply(""), kMs);
  ASSERT_TRUE(cut);
  EXPECT_TRUE(cut->cut_short);
  EXPECT_FALSE(cut->failed);
  scheduler.on_turn_end(b, TurnOutcome::ok, text_reply("r"),
                        kMs);  // thinking when the run ends
  const std::vector<SessionEnd> open = scheduler.open_sessions();
  ASSERT_EQ(open.size(), 1u);  // session 2 opened in a's slot but sent nothing: not counted
  EXPECT_EQ(open[0].session, 1u);
  EXPECT_TRUE(open[0].cut_short);
  EXPECT_EQ(open[0].turns_completed, 1);
}

// Agent sessions of one task (8 words, 16 tokens asked per turn), results of 5 words.
SessionPlan agent_plan(std::optional<std::int64_t> context, std::optional<std::int64_t> turns) {
  SessionPlan plan = plan_of(1, 1, 1, 0.25);
  plan.turns_of = [](std::uint64_t) { return std::vector<UserTurn>{{"the task", 8, 16}}; };
  SessionPlan::Agent agent;
  agent.text.tool_result_words = 5;
  agent.context_tokens = context;
  agent.max_turns = turns;
  plan.agent = agent;
  return plan;
}

TEST(SessionScheduler, AnAgentTurnAnswersTheLastRepliesToolCallsByTheirIds) {
  SessionScheduler scheduler(agent_plan(std::nullopt, 3));
  TurnToSend turn = scheduler.take(0);
  EXPECT_EQ(turn.history->chat_messages().size(), 1u);
  bench::app::TurnReply reply;
  reply.tool_calls = {{"call_x", "search", R"({"q": "a"})"}, {"", "read", "{}"}};
  EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, reply, 10 * kMs));
  EXPECT_EQ(scheduler.next_due_ns(), 10 * kMs + 250 * kMs);  // the tools' latency
  turn = scheduler.take(260 * kMs);
  EXPECT_EQ(turn.turn, 1);
  EXPECT_EQ(turn.user->output_len, 16);  // the task's, every turn
  const nlohmann::json messages = turn.history->chat_messages();
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[1]["tool_calls"][0]["id"], "call_x");
  const std::string given = bench::workload::missing_tool_call_id(0, 0, 1);
  EXPECT_EQ(messages[1]["tool_calls"][1]["id"], given);
  EXPECT_EQ(messages[2]["tool_call_id"], "call_x");
  EXPECT_EQ(messages[3]["tool_call_id"], given);
  // A reply in text: the next turn is the user's next instruction, as long as the task.
  EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply("all done"), 300 * kMs));
  turn = scheduler.take(550 * kMs);
  const nlohmann::json next = turn.history->chat_messages();
  ASSERT_EQ(next.size(), 6u);
  EXPECT_EQ(next[5]["role"], "user");
  const std::optional<SessionEnd> ended =
      scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply("ok"), 600 * kMs);
  ASSERT_TRUE(ended);  // its --turns cap
  EXPECT_TRUE(ended->completed());
  EXPECT_EQ(ended->turns_completed, 3);
}

// --images-per-request: an agent's user turns (its task, its next instructions) carry their own
// images, as a plain session's turns do; tool results carry none.
TEST(SessionScheduler, AnAgentsInstructionsCarryImagesAndItsToolResultsNone) {
  SessionPlan plan = agent_plan(std::nullopt, 3);
  int made = 0;
  plan.user_images = [&made] {
    return std::vector<std::string>{"data:image/png;base64,i" + std::to_string(made++)};
  };
  SessionScheduler scheduler(plan);
  TurnToSend turn = scheduler.take(0);
  bench::app::TurnReply reply;
  reply.tool_calls = {{"call_x", "search", "{}"}};
  EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, reply, 10 * kMs));
  turn = scheduler.take(260 * kMs);  // the tool's result
  EXPECT_EQ(made, 1);
  EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, text_reply("done"), 300 * kMs));
  turn = scheduler.take(550 * kMs);  // the user's next instruction
  EXPECT_EQ(made, 2);
  const nlohmann::json messages = turn.history->chat_messages();
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(messages[0]["content"][1]["image_url"]["url"], "data:image/png;base64,i0");
  EXPECT_TRUE(messages[2]["content"].is_string());  // the tool's result
  EXPECT_EQ(messages[4]["role"], "user");
  EXPECT_EQ(messages[4]["content"][1]["image_url"]["url"], "data:image/png;base64,i1");
}

TEST(SessionScheduler, AnAgentSessionEndsAfterTheTurnWhosePromptReachedTheContextTarget) {
  SessionScheduler scheduler(agent_plan(100, std::nullopt));
  std::int64_t now = 0;
  for (const std::int64_t context : {40, 70, 99}) {
    const TurnToSend turn = scheduler.take(now);
    bench::app::TurnReply reply;
    reply.tool_calls = {{"c", "f", "{}"}};
    reply.context_tokens = context;
    EXPECT_FALSE(scheduler.on_turn_end(turn, TurnOutcome::ok, reply, now)) << context;
    now = *scheduler.next_due_ns();
  }
  const TurnToSend last = scheduler.take(now);
  bench::app::TurnReply reply;
  reply.context_tokens = 100;
  const std::optional<SessionEnd> ended = scheduler.on_turn_end(last, TurnOutcome::ok, reply, now);
  ASSERT_TRUE(ended);
  EXPECT_TRUE(ended->completed());
  EXPECT_EQ(ended->turns_completed, 4);
  EXPECT_EQ(scheduler.next_due_ns(), std::nullopt);
}

TEST(SessionScheduler, APlainMultiTurnHistoryKeepsTheRepliesTextWithoutTheirCalls) {
  SessionScheduler scheduler(plan_of(1, 1, 2, 0));
  TurnToSend turn = scheduler.take(0);
  bench::app::TurnReply reply;
  reply.text = "text";
  reply.tool_calls = {{"c", "f", "{}"}};
  scheduler.on_turn_end(turn, TurnOutcome::ok, reply, kMs);
  turn = scheduler.take(kMs);
  EXPECT_FALSE(turn.history->chat_messages()[1].contains("tool_calls"));
}

// --fan-out 3: the first reply starts three branches, each the history so far with its own
// tool results; the session ends, and gives up its slot, only when every branch has ended.
TEST(SessionScheduler, AFanOutStartsBranchesThatShareTheFirstReplyAndEndTogether) {
  SessionPlan plan = agent_plan(std::nullopt, 2);
  plan.end = 2;  // a second session waits for the first one's slot
  plan.agent->fan_out = 3;
  SessionScheduler scheduler(plan);
  const TurnToSend first = scheduler.take(0);
  EXPECT_EQ(first.branch, 0u);
  bench::app::TurnReply reply;
  reply.tool_calls = {{"call_1", "search", "{}"}};
  EXPECT_FALSE(scheduler.on_turn_end(first, TurnOutcome::ok, reply, 10 * kMs));
  std::vector<TurnToSend> branches;
  std::vector<nlohmann::json> histories;
  while (scheduler.next_due_ns() != SessionScheduler::kAwaitingReply) {
    EXPECT_EQ(scheduler.next_due_ns(), 10 * kMs + 250 * kMs);  // each after the tools' latency
    branches.push_back(scheduler.take(260 * kMs));
    histories.push_back(branches.back().history->chat_messages());
  }
  ASSERT_EQ(branches.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(branches[k].session, 0u);
    EXPECT_EQ(branches[k].turn, 1);
    EXPECT_EQ(branches[k].branch, k);
    ASSERT_EQ(histories[k].size(), 3u);  // the task, the reply's call, its result
    EXPECT_EQ(histories[k][1], histories[0][1]);
    EXPECT_EQ(histories[k][2]["tool_call_id"], "call_1");
  }
  // Each branch's tool result is its own.
  EXPECT_NE(histories[0][2]["content"], histories[1][2]["content"]);
  EXPECT_NE(histories[1][2]["content"], histories[2][2]["content"]);
  EXPECT_FALSE(scheduler.on_turn_end(branches[2], TurnOutcome::ok, text_reply("c"), 300 * kMs));
  EXPECT_FALSE(scheduler.on_turn_end(branches[0], TurnOutcome::failed, text_reply(""), 310 * kMs));
  EXPECT_EQ(scheduler.next_due_ns(), SessionScheduler::kAwaitingReply);  // no slot given up yet
  const std::optional<SessionEnd> ended =
      scheduler.on_turn_end(branches[1], TurnOutcome::ok, text_reply("b"), 320 * kMs);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->turns_completed, 3);  // the first turn once, and two branches' second
  EXPECT_TRUE(ended->failed);
  EXPECT_EQ(ended->start_ns, 0);
  EXPECT_EQ(ended->end_ns, 320 * kMs);
  EXPECT_EQ(scheduler.take(320 * kMs).session, 1u);
}

TEST(SessionScheduler, SessionsAreDealtByFirstAndStrideSoShardsNeverShareOne) {
  SessionPlan plan = plan_of(10, 8, 1);
  plan.first = 1;
  plan.stride = 3;
  SessionScheduler scheduler(plan);
  std::vector<std::uint64_t> sessions;
  while (scheduler.next_due_ns() && *scheduler.next_due_ns() != SessionScheduler::kAwaitingReply) {
    sessions.push_back(scheduler.take(0).session);
  }
  EXPECT_EQ(sessions, (std::vector<std::uint64_t>{1, 4, 7}));
}

}  // namespace
