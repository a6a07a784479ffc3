// The simulator's Messages API: a Messages body read as the chat body it amounts to (max_tokens
// required, as Anthropic requires it), and the answer rendered as Anthropic's events with the
// usage split as Anthropic reports it (input_tokens excludes the cached part).
#include "bench/sim/messages_api.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace messages_api_test {

using bench::sim::chat_body_of_messages;
using bench::sim::MessagesEvents;
using bench::sim::ResponseShape;
using bench::sim::Usage;
using nlohmann::json;

TEST(SimMessages, ABodyWithoutMaxTokensIsRefusedInAnthropicsWords) {
  const auto read = chat_body_of_messages(R"({"model":"m","messages":[]})");
  EXPECT_FALSE(read.chat_body.has_value());
  EXPECT_EQ(read.error, "invalid_request_error: max_tokens: Field required");
}

TEST(SimMessages, SystemToolUseAndToolResultBecomeChatsMessages) {
  const auto read = chat_body_of_messages(R"({"model":"m","max_tokens":8,"stream":true,
    "system":"Be brief.",
    "messages":[{"role":"user","content":"Weather?"},
      {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"w","input":{"c":"P"}}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"18 C"},
                                {"type":"text","text":"Thanks"}]}],
    "tools":[{"name":"w","input_schema":{"type":"object"}}],"tool_choice":{"type":"any"}})");
  ASSERT_TRUE(read.chat_body.has_value()) << read.error;
  const json chat = json::parse(*read.chat_body);
  const json& messages = chat["messages"];
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(messages[0], json::parse(R"({"role":"system","content":"Be brief."})"));
  EXPECT_EQ(messages[1], json::parse(R"({"role":"user","content":"Weather?"})"));
  EXPECT_EQ(messages[2]["tool_calls"][0]["function"]["name"], "w");
  EXPECT_EQ(messages[3], json::parse(R"({"role":"tool","tool_call_id":"t1","content":"18 C"})"));
  EXPECT_EQ(messages[4], json::parse(R"({"role":"user","content":"Thanks"})"));
  EXPECT_EQ(chat["tools"][0]["function"]["name"], "w");
  EXPECT_EQ(chat["tool_choice"], "required");
  EXPECT_EQ(chat["stream_options"]["include_usage"], true);
}

TEST(SimMessages, EventsCarryTheUsageSplitAndACumulativeOutput) {
  ResponseShape shape;
  shape.chat = true;
  shape.messages = true;
  shape.id = "msg_1";
  shape.model_json = "\"m\"";
  MessagesEvents events(shape);
  std::string out;
  events.begin(out, Usage{.prompt_tokens = 100, .completion_tokens = 0, .cached_tokens = 60});
  events.answer(out, "Hi");
  events.answer(out, " there");
  events.finish(out, "length", nullptr);
  EXPECT_NE(out.find(R"("input_tokens":40,"cache_creation_input_tokens":0,)"
                     R"("cache_read_input_tokens":60)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"("delta":{"type":"text_delta","text":" there"})"), std::string::npos);
  EXPECT_NE(out.find(R"("stop_reason":"max_tokens")"), std::string::npos);
  EXPECT_NE(out.find("event: message_stop"), std::string::npos);
  // One text block: opened once, closed once.
  EXPECT_EQ(out.find("event: content_block_start"), out.rfind("event: content_block_start"));
}

}  // namespace messages_api_test
