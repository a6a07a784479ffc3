// Agent sessions' history: the model's tool calls sent back as it streamed them, each answered
// by a tool message naming its id, results of the asked length that no other session or turn
// shares, and the user's next instruction after a reply in text.
#include "bench/workload/agent_session.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/util/words.hpp"
#include "bench/workload/conversation.hpp"

namespace {

using bench::workload::AgentTurnText;
using bench::workload::Conversation;
using bench::workload::ToolCall;
using nlohmann::json;

AgentTurnText text_of(std::int64_t tool_words, std::int64_t follow_up_words) {
  AgentTurnText text;
  text.seed = 7;
  text.stream = 0;
  text.tool_result_words = tool_words;
  text.follow_up_words = follow_up_words;
  return text;
}

TEST(Conversation, AReplyOfToolCallsIsSentAsTheModelMadeItAndEachResultNamesItsCall) {
  Conversation conversation;
  conversation.add_user("find the weather");
  conversation.add_reply(
      "", {{"call_a", "get_weather", R"({"city": "Oslo"})"}, {"call_b", "get_time", "{}"}});
  conversation.add_tool_result("call_a", "rain");
  conversation.add_tool_result("call_b", "noon");
  EXPECT_EQ(conversation.chat_messages(), json::parse(R"([
      {"role":"user","content":"find the weather"},
      {"role":"assistant","content":null,"tool_calls":[
        {"id":"call_a","type":"function",
         "function":{"name":"get_weather","arguments":"{\"city\": \"Oslo\"}"}},
        {"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{}"}}]},
      {"role":"tool","tool_call_id":"call_a","content":"rain"},
      {"role":"tool","tool_call_id":"call_b","content":"noon"}])"));
  // find the weather (3) + get_weather {"city": "Oslo"} (1 + 2) + get_time {} (2) + 2 results.
  EXPECT_EQ(conversation.words(), 3 + 3 + 2 + 2);
  EXPECT_EQ(conversation.user_turns(), 1u);
}

TEST(Conversation, AReplyWithTextAndCallsKeepsItsText) {
  Conversation conversation;
  conversation.add_user("u");
  conversation.add_reply("let me look", {{"c", "f", "{}"}});
  const json messages = conversation.chat_messages();
  EXPECT_EQ(messages[1]["content"], "let me look");
  EXPECT_EQ(messages[1]["tool_calls"][0]["id"], "c");
  EXPECT_EQ(conversation.pending_tool_calls().size(), 1u);
  conversation.add_tool_result("c", "r");
  EXPECT_TRUE(conversation.pending_tool_calls().empty());  // answered
}

TEST(AgentSession, ATurnAfterToolCallsAnswersEachCallWithAResultOfTheAskedLength) {
  Conversation history;
  history.add_user("task");
  std::vector<ToolCall> calls = {{"", "f", "{}"}, {"given", "g", "{}"}};
  bench::workload::name_tool_calls(calls, 3, 1);
  EXPECT_EQ(calls[0].id, bench::workload::missing_tool_call_id(3, 1, 0));
  EXPECT_EQ(calls[1].id, "given");  // the server's id is kept
  history.add_reply("", calls);
  bench::workload::add_agent_turn(history, text_of(25, 4), 3, 1);
  const json messages = history.chat_messages();
  ASSERT_EQ(messages.size(), 4u);
  for (std::size_t k = 0; k < 2; ++k) {
    const json& result = messages[2 + k];
    EXPECT_EQ(result["role"], "tool");
    EXPECT_EQ(result["tool_call_id"], calls[k].id);
    EXPECT_EQ(bench::util::count_words(result["content"].get<std::string>()), 25);
  }
  EXPECT_NE(messages[2]["content"], messages[3]["content"]);
  EXPECT_EQ(history.user_turns(), 1u);
}

TEST(AgentSession, ATurnAfterAReplyInTextIsTheUsersNextInstruction) {
  Conversation history;
  history.add_user("task");
  history.add_reply("done");
  bench::workload::add_agent_turn(history, text_of(25, 6), 0, 1);
  const json messages = history.chat_messages();
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[2]["role"], "user");
  EXPECT_EQ(bench::util::count_words(messages[2]["content"].get<std::string>()), 6);
}

TEST(AgentSession, ToolResultsAreFreshForEverySessionTurnCallAndStreamAndRepeatForTheSame) {
  const AgentTurnText text = text_of(12, 1);
  std::set<std::string> seen;
  for (std::uint64_t session = 0; session < 3; ++session) {
    for (std::int64_t turn = 1; turn < 4; ++turn) {
      for (std::size_t call = 0; call < 2; ++call) {
        const std::string result = bench::workload::tool_result_text(text, session, turn, call);
        EXPECT_EQ(result, bench::workload::tool_result_text(text, session, turn, call));
        seen.insert(result);
      }
    }
  }
  EXPECT_EQ(seen.size(), 18u);
  AgentTurnText other_point = text;
  other_point.stream = 1;
  EXPECT_NE(bench::workload::tool_result_text(other_point, 0, 1, 0),
            bench::workload::tool_result_text(text, 0, 1, 0));
}

}  // namespace
