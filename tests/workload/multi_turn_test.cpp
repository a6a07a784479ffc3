#include "bench/workload/multi_turn.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt_source.hpp"
#include "temp_file.hpp"

namespace {

using bench::workload::Conversation;
using bench::workload::parse_think_time;
using bench::workload::think_time_ns;
using bench::workload::ThinkTime;
using nlohmann::json;

ThinkTime parsed(const std::string& spec) {
  auto result = parse_think_time(spec);
  EXPECT_TRUE(std::holds_alternative<ThinkTime>(result)) << spec;
  return std::holds_alternative<ThinkTime>(result) ? std::get<ThinkTime>(result) : ThinkTime{};
}

std::string refused(const std::string& spec) {
  auto result = parse_think_time(spec);
  EXPECT_TRUE(std::holds_alternative<std::string>(result)) << spec;
  return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "";
}

TEST(ThinkTime, ReadsFixedExponentialAndUniformSecondsAndWritesThemBack) {
  EXPECT_EQ(parsed("0.5").kind, ThinkTime::Kind::fixed);
  EXPECT_DOUBLE_EQ(parsed("0.5").a_s, 0.5);
  EXPECT_EQ(parsed("exp:2").kind, ThinkTime::Kind::exponential);
  EXPECT_DOUBLE_EQ(parsed("exp:2").a_s, 2);
  const ThinkTime uniform = parsed("uniform:1-3");
  EXPECT_EQ(uniform.kind, ThinkTime::Kind::uniform);
  EXPECT_DOUBLE_EQ(uniform.a_s, 1);
  EXPECT_DOUBLE_EQ(uniform.b_s, 3);
  for (const std::string spec : {"0.5", "exp:2", "uniform:1-3", "0"}) {
    EXPECT_EQ(bench::workload::think_time_text(parsed(spec)), spec);
  }
}

TEST(ThinkTime, RefusesNegativeNonNumericReversedAndZeroMean) {
  EXPECT_NE(refused("-1").find("'-1'"), std::string::npos);
  EXPECT_NE(refused("soon").find("not a number of seconds"), std::string::npos);
  EXPECT_NE(refused("exp:0").find("above 0"), std::string::npos);
  EXPECT_NE(refused("exp:x").find("'x'"), std::string::npos);
  EXPECT_NE(refused("uniform:3-1").find("A is above B"), std::string::npos);
  EXPECT_NE(refused("uniform:3").find("uniform:A-B"), std::string::npos);
  EXPECT_FALSE(refused("inf").empty());
  EXPECT_FALSE(refused("").empty());
}

TEST(ThinkTime, DrawsAreSeededBySessionAndTurnAloneAndStayInTheirRange) {
  const ThinkTime fixed = parsed("0.25");
  EXPECT_EQ(think_time_ns(fixed, 1, 2, 3), 250'000'000);
  const ThinkTime uniform = parsed("uniform:1-2");
  std::set<std::int64_t> distinct;
  for (std::uint64_t session = 0; session < 200; ++session) {
    const std::int64_t ns = think_time_ns(uniform, 7, session, 1);
    EXPECT_GE(ns, 1'000'000'000);
    EXPECT_LE(ns, 2'000'000'000);
    EXPECT_EQ(ns, think_time_ns(uniform, 7, session, 1));  // the same draw whenever asked
    distinct.insert(ns);
  }
  EXPECT_GT(distinct.size(), 190u);
  EXPECT_NE(think_time_ns(uniform, 7, 0, 1), think_time_ns(uniform, 8, 0, 1));  // the seed counts
  EXPECT_NE(think_time_ns(uniform, 7, 0, 1), think_time_ns(uniform, 7, 0, 2));  // and the turn
}

TEST(ThinkTime, ExponentialDrawsHaveTheirMean) {
  const ThinkTime exponential = parsed("exp:2");
  double sum_s = 0;
  constexpr int kDraws = 20'000;
  for (int i = 0; i < kDraws; ++i) {
    const std::int64_t ns = think_time_ns(exponential, 3, static_cast<std::uint64_t>(i), 1);
    ASSERT_GE(ns, 0);
    sum_s += static_cast<double>(ns) / 1e9;
  }
  EXPECT_NEAR(sum_s / kDraws, 2.0, 0.1);  // the standard error is 2 / sqrt(20000) = 0.014
}

TEST(Conversation, ChatHistoryAlternatesUserAndTheRepliesReceived) {
  Conversation conversation;
  conversation.add_user("hello there");
  EXPECT_EQ(conversation.chat_messages(),
            json::parse(R"([{"role":"user","content":"hello there"}])"));
  conversation.add_reply(" hi, how can I help?");
  conversation.add_user("tell me more");
  EXPECT_EQ(conversation.chat_messages(), json::parse(R"([
      {"role":"user","content":"hello there"},
      {"role":"assistant","content":" hi, how can I help?"},
      {"role":"user","content":"tell me more"}])"));
  EXPECT_EQ(conversation.words(), 2 + 5 + 3);
}

TEST(Conversation, TranscriptExtendsThePreviousPromptAndItsReply) {
  Conversation conversation;
  conversation.add_user("u0");
  const std::string first = conversation.transcript();
  conversation.add_reply(" r0 continued");
  conversation.add_user("u1");
  const std::string second = conversation.transcript();
  EXPECT_EQ(first, "u0");
  EXPECT_EQ(second, "u0 r0 continued\n\nu1");
  EXPECT_EQ(second.rfind(first + " r0 continued", 0), 0u);  // a prefix a cache can hold
}

TEST(SessionTurns, RandomSessionsTakeTurnsFreshPromptsNeverSharedWithAnotherSession) {
  bench::workload::DatasetOptions options;
  options.input_len = 8;
  options.output_len = 5;
  options.seed = 11;
  const auto source = bench::workload::open_prompt_source(options);
  std::set<std::string> texts;
  for (std::uint64_t session = 0; session < 4; ++session) {
    const auto turns = bench::workload::session_turns(*source, 0, session, 3, false);
    ASSERT_EQ(turns.size(), 3u);
    for (const auto& turn : turns) {
      EXPECT_EQ(turn.output_len, 5);
      texts.insert(turn.text);
    }
    // A pure function of the session: the same turns whenever asked.
    EXPECT_EQ(bench::workload::session_turns(*source, 0, session, 3, false)[2].text, turns[2].text);
  }
  EXPECT_EQ(texts.size(), 12u);
}

TEST(SessionTurns, ShareGptSessionsAreTheConversationsHumanTurnsCappedByTurns) {
  const bench::testing::TempFile file("sharegpt.json", R"([{"conversations": [
      {"from": "human", "value": "first question with several words"},
      {"from": "gpt", "value": "an answer of exactly six words"},
      {"from": "human", "value": "second question"},
      {"from": "gpt", "value": "two words"},
      {"from": "human", "value": "third one here"}]}])");
  bench::workload::DatasetOptions options;
  options.kind = bench::workload::DatasetKind::sharegpt;
  options.path = file.path();
  options.shuffle = false;
  options.follow_ups = true;
  const auto source = bench::workload::open_prompt_source(options);
  const auto all = bench::workload::session_turns(*source, 0, 0, std::nullopt, true);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].text, "first question with several words");
  EXPECT_EQ(all[0].output_len, 6);
  EXPECT_EQ(all[1].text, "second question");
  EXPECT_EQ(all[1].input_len, 2);
  EXPECT_EQ(all[1].output_len, 2);  // the length of the reply that answered it
  EXPECT_EQ(all[2].text, "third one here");
  EXPECT_EQ(all[2].output_len, 6);  // unanswered: the first turn's target
  EXPECT_EQ(bench::workload::session_turns(*source, 0, 0, 2, true).size(), 2u);
}

}  // namespace
