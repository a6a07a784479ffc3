// What the embedded server reads from a completion request body (its prompt token rule, shared
// with the client, is tested in tests/util/words_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "bench/sim/completion_request.hpp"

namespace {

using bench::sim::parse_completion_request;

TEST(CompletionRequest, ReadsStreamingOptionsAndLengths) {
  const auto parsed = parse_completion_request(
      R"({"model":"m","prompt":"a b c","max_tokens":7,"stream":true,"ignore_eos":true,)"
      R"("stream_options":{"include_usage":true,"continuous_usage_stats":true}})",
      false);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->model, "m");
  EXPECT_EQ(parsed.request->prompt_tokens, 3);
  EXPECT_EQ(parsed.request->max_tokens, 7);
  EXPECT_TRUE(parsed.request->stream);
  EXPECT_TRUE(parsed.request->ignore_eos);
  EXPECT_TRUE(parsed.request->include_usage);
  EXPECT_TRUE(parsed.request->continuous_usage);
}

TEST(CompletionRequest, DefaultsWhenOptionalFieldsAreAbsent) {
  const auto parsed = parse_completion_request(R"({"prompt":"x"})", false);
  ASSERT_TRUE(parsed.request);
  EXPECT_FALSE(parsed.request->stream);
  EXPECT_FALSE(parsed.request->include_usage);
  EXPECT_FALSE(parsed.request->max_tokens.has_value());
}

TEST(CompletionRequest, CountsChatMessagesAndContentParts) {
  const auto parsed = parse_completion_request(
      R"({"messages":[{"role":"system","content":"be brief"},)"
      R"({"role":"user","content":[{"type":"text","text":"one two three"},{"type":"input_audio"}]}],)"
      R"("max_completion_tokens":4})",
      true);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_TRUE(parsed.request->chat);
  EXPECT_EQ(parsed.request->prompt_tokens, 5);
  EXPECT_EQ(parsed.request->max_tokens, 4);
}

TEST(CompletionRequest, CountsTokenIdsAndStringArrays) {
  auto ids = parse_completion_request(R"({"prompt":[1,2,3,4]})", false);
  ASSERT_TRUE(ids.request);
  EXPECT_EQ(ids.request->prompt_tokens, 4);
  auto strings = parse_completion_request(R"({"prompt":["a b","c"]})", false);
  ASSERT_TRUE(strings.request);
  EXPECT_EQ(strings.request->prompt_tokens, 3);
}

TEST(CompletionRequest, IgnoresFlagsOfTheWrongType) {
  const auto parsed = parse_completion_request(
      R"({"prompt":"x","ignore_eos":"yes","stream_options":{"include_usage":1}})", false);
  ASSERT_TRUE(parsed.request);
  EXPECT_FALSE(parsed.request->ignore_eos);
  EXPECT_FALSE(parsed.request->include_usage);
}

class RefusedBody : public ::testing::TestWithParam<std::pair<const char*, bool>> {};

TEST_P(RefusedBody, IsRefusedWithAReason) {
  const auto parsed = parse_completion_request(GetParam().first, GetParam().second);
  EXPECT_FALSE(parsed.request);
  EXPECT_FALSE(parsed.error.empty());
}

INSTANTIATE_TEST_SUITE_P(Bodies, RefusedBody,
                         ::testing::Values(std::pair{"{not json", false}, std::pair{"[1]", false},
                                           std::pair{R"({"max_tokens":3})", false},
                                           std::pair{R"({"prompt":{"a":1}})", false},
                                           std::pair{R"({"prompt":"x","max_tokens":0})", false},
                                           std::pair{R"({"prompt":"x","max_tokens":"5"})", false},
                                           std::pair{R"({"prompt":"x","n":2})", false},
                                           std::pair{R"({"prompt":"x","stream":"true"})", false},
                                           std::pair{R"({"messages":[]})", true},
                                           std::pair{R"({"prompt":"x"})", true},
                                           std::pair{R"({"messages":[{"content":7}]})", true}));

}  // namespace

namespace {

using ToolChoice = bench::sim::CompletionRequest::ToolChoice;

constexpr const char* kChatWithTools = R"({"messages":[{"role":"user","content":"hi"}],"tools":[)"
                                       R"({"type":"function","function":{"name":"get_weather"}},)"
                                       R"({"type":"function","function":{"name":"search"}}])";

TEST(CompletionRequest, ReadsToolsAndToolChoice) {
  auto parsed = parse_completion_request(std::string(kChatWithTools) + "}", true);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->tool_name, "get_weather");
  EXPECT_EQ(parsed.request->tool_choice, ToolChoice::auto_choice);
  parsed =
      parse_completion_request(std::string(kChatWithTools) + R"(,"tool_choice":"none"})", true);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->tool_choice, ToolChoice::none);
  parsed = parse_completion_request(
      std::string(kChatWithTools) +
          R"(,"tool_choice":{"type":"function","function":{"name":"search"}}})",
      true);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->tool_name, "search");
  EXPECT_EQ(parsed.request->tool_choice, ToolChoice::required);
  const auto plain =
      parse_completion_request(R"({"messages":[{"role":"user","content":"x"}]})", true);
  ASSERT_TRUE(plain.request);
  EXPECT_TRUE(plain.request->tool_name.empty());
}

TEST(CompletionRequest, RefusesANamedToolChoiceThatIsNoTool) {
  const auto parsed = parse_completion_request(
      std::string(kChatWithTools) +
          R"(,"tool_choice":{"type":"function","function":{"name":"nope"}}})",
      true);
  EXPECT_FALSE(parsed.request);
  EXPECT_NE(parsed.error.find("nope"), std::string::npos) << parsed.error;
  EXPECT_FALSE(
      parse_completion_request(std::string(kChatWithTools) + R"(,"tool_choice":3})", true).request);
}

// An agent's history: the assistant's tool calls count as the template renders them (name and
// arguments), each tool message must answer a call of the assistant message before it, by id
// (OpenAI's 400 wording), and every call must be answered before the history goes on.
TEST(CompletionRequest, CountsAnAgentsToolCallsAndHoldsItsToolMessagesToTheirIds) {
  const std::string calls =
      R"({"role":"user","content":"find it"},{"role":"assistant","content":null,"tool_calls":[)"
      R"({"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"x\"}"}},)"
      R"({"id":"c2","type":"function","function":{"name":"read","arguments":"{}"}}]})";
  const auto answered = parse_completion_request(
      R"({"messages":[)" + calls +
          R"(,{"role":"tool","tool_call_id":"c2","content":"two words"},)"
          R"({"role":"tool","tool_call_id":"c1","content":"three more words"}]})",
      true);
  ASSERT_TRUE(answered.request) << answered.error;
  // find it (2) + search {"q": "x"} (1 + 2) + read {} (2) + the results (2 + 3).
  EXPECT_EQ(answered.request->prompt_tokens, 2 + 3 + 2 + 2 + 3);

  const auto stray = parse_completion_request(
      R"({"messages":[)" + calls + R"(,{"role":"tool","tool_call_id":"c9","content":"r"}]})", true);
  EXPECT_FALSE(stray.request);
  EXPECT_NE(stray.error.find("must be a response to a preceeding message"), std::string::npos)
      << stray.error;
  const auto unanswered = parse_completion_request(
      R"({"messages":[)" + calls +
          R"(,{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"user","content":"u"}]})",
      true);
  EXPECT_FALSE(unanswered.request);
  EXPECT_NE(unanswered.error.find("did not have response messages: c2"), std::string::npos)
      << unanswered.error;
  const auto orphan = parse_completion_request(
      R"({"messages":[{"role":"user","content":"u"},{"role":"tool","tool_call_id":"c1",)"
      R"("content":"r"}]})",
      true);
  EXPECT_FALSE(orphan.request);
}

}  // namespace
