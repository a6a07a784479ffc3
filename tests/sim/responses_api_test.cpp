// The simulator's Responses API: a Responses body read as the chat request it amounts to, and
// the same answer rendered as Responses events that bench's own reader (read as the responses
// endpoint) counts as it counts the chat stream of that answer.
#include "bench/sim/responses_api.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sim/stream_renderer.hpp"

namespace {

using bench::metrics::RequestRecord;
using bench::sim::chat_body_of_responses;
using bench::sim::StreamRenderer;
using bench::sim::StreamSetup;
using nlohmann::json;

TEST(ResponsesAsChat, ReadsInputMaxOutputTokensAndToolsAsChats) {
  const auto as_chat = chat_body_of_responses(
      R"({"model":"m","input":"hi there","max_output_tokens":5,"stream":true,)"
      R"("tools":[{"type":"function","name":"f","parameters":{}}],)"
      R"("tool_choice":{"type":"function","name":"f"}})");
  ASSERT_TRUE(as_chat.chat_body) << as_chat.error;
  const json chat = json::parse(*as_chat.chat_body);
  EXPECT_EQ(chat["messages"], json::parse(R"([{"role":"user","content":"hi there"}])"));
  EXPECT_EQ(chat["max_tokens"], 5);
  EXPECT_FALSE(chat.contains("input"));
  EXPECT_FALSE(chat.contains("max_output_tokens"));
  EXPECT_EQ(chat["tools"][0]["function"]["name"], "f");
  EXPECT_EQ(chat["tool_choice"]["function"]["name"], "f");
  EXPECT_EQ(chat["stream_options"]["include_usage"], true);
}

// Input content parts in chat's names, an image's URL (a string, or an object with "url")
// inside chat's image_url object, so the chat path counts and caches it.
TEST(ResponsesAsChat, ReadsInputTextAndImagePartsAsChats) {
  const auto as_chat = chat_body_of_responses(
      R"({"model":"m","stream":true,"input":[{"role":"user","content":[)"
      R"({"type":"input_text","text":"what?"},)"
      R"({"type":"input_image","image_url":"data:image/png;base64,AAAA"},)"
      R"({"type":"input_image","image_url":{"url":"data:image/jpeg;base64,BBBB"}}]},)"
      R"({"role":"assistant","content":[{"type":"output_text","text":"a cat"}]}]})");
  ASSERT_TRUE(as_chat.chat_body) << as_chat.error;
  EXPECT_EQ(json::parse(*as_chat.chat_body)["messages"],
            json::parse(R"([{"role":"user","content":[{"type":"text","text":"what?"},)"
                        R"({"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},)"
                        R"({"type":"image_url","image_url":)"
                        R"({"url":"data:image/jpeg;base64,BBBB"}}]},)"
                        R"({"role":"assistant","content":[{"type":"text","text":"a cat"}]}])"));
}

// An agent's history in the Responses API's items reads as chat's: the calls join the reply
// before them, each output is a tool message; chat's own shapes are refused as OpenAI does.
TEST(ResponsesAsChat, ReadsFunctionCallItemsAsChatsToolCallsAndRefusesChatsShape) {
  const auto as_chat = chat_body_of_responses(
      R"({"model":"m","stream":true,"input":[{"role":"user","content":"task"},)"
      R"({"role":"assistant","content":"looking"},)"
      R"({"type":"function_call","call_id":"c1","name":"read","arguments":"{}"},)"
      R"({"type":"function_call","call_id":"c2","name":"ls","arguments":"{}"},)"
      R"({"type":"function_call_output","call_id":"c1","output":"one"},)"
      R"({"type":"function_call_output","call_id":"c2","output":"two"},)"
      R"({"type":"function_call","call_id":"c3","name":"read","arguments":"{}"},)"
      R"({"type":"function_call_output","call_id":"c3","output":"three"}]})");
  ASSERT_TRUE(as_chat.chat_body) << as_chat.error;
  const json messages = json::parse(*as_chat.chat_body)["messages"];
  ASSERT_EQ(messages.size(), 6u);
  EXPECT_EQ(messages[1]["content"], "looking");
  ASSERT_EQ(messages[1]["tool_calls"].size(), 2u);
  EXPECT_EQ(messages[1]["tool_calls"][1]["function"]["name"], "ls");
  EXPECT_EQ(messages[2], json::parse(R"({"role":"tool","tool_call_id":"c1","content":"one"})"));
  EXPECT_TRUE(messages[4]["content"].is_null());
  EXPECT_EQ(messages[4]["tool_calls"][0]["id"], "c3");
  const auto tool_role = chat_body_of_responses(
      R"({"stream":true,"input":[{"role":"tool","tool_call_id":"c","content":"x"}]})");
  EXPECT_FALSE(tool_role.chat_body);
  EXPECT_NE(tool_role.error.find("Invalid value: 'tool'"), std::string::npos) << tool_role.error;
  const auto calls = chat_body_of_responses(
      R"({"stream":true,"input":[{"role":"assistant","content":null,"tool_calls":[]}]})");
  EXPECT_EQ(calls.error, "Unknown parameter: 'input[0].tool_calls'.");
}

TEST(ResponsesAsChat, RefusesWhatItDoesNotServe) {
  EXPECT_FALSE(chat_body_of_responses("{").chat_body);
  EXPECT_FALSE(chat_body_of_responses(R"({"input":7,"stream":true})").chat_body);
}

TEST(ResponsesAsChat, ANonStreamedRequestStaysNonStreamedWithoutStreamOptions) {
  for (const char* body : {R"({"input":"x","stream":false})", R"({"input":"x"})"}) {
    const auto as_chat = chat_body_of_responses(body);
    ASSERT_TRUE(as_chat.chat_body) << as_chat.error;
    const nlohmann::json chat = nlohmann::json::parse(*as_chat.chat_body);
    EXPECT_NE(chat.value("stream", false), true) << body;
    EXPECT_FALSE(chat.contains("stream_options")) << body;
  }
  const auto streamed = chat_body_of_responses(R"({"input":"x","stream":true})");
  ASSERT_TRUE(streamed.chat_body);
  EXPECT_EQ(nlohmann::json::parse(*streamed.chat_body)["stream_options"]["include_usage"], true);
}

StreamSetup setup(bool responses, std::int64_t tokens, std::int64_t reasoning,
                  std::string tool_name) {
  StreamSetup s;
  s.shape.chat = true;
  s.shape.responses = responses;
  s.shape.id = responses ? "resp-3" : "chatcmpl-3";
  s.shape.model_json = "\"m\"";
  s.text_seed = 3;
  s.prompt_tokens = 20;
  s.cached_prompt_tokens = 8;
  s.target_tokens = tokens;
  s.reasoning_tokens = reasoning;
  s.tool_name = std::move(tool_name);
  s.include_usage = true;
  return s;
}

// The de-chunked body of the whole response, one token per step.
std::string render(StreamSetup s) {
  StreamRenderer renderer(std::move(s));
  std::string out;
  renderer.begin(out);
  for (int i = 0; i < 1000; ++i) {
    if (renderer.on_tokens(1, out).next == StreamRenderer::Next::finished) break;
  }
  std::string_view bytes = std::string_view(out).substr(out.find("\r\n\r\n") + 4);
  std::string body;
  while (!bytes.empty()) {
    const std::size_t line_end = bytes.find("\r\n");
    const std::size_t size = std::stoul(std::string(bytes.substr(0, line_end)), nullptr, 16);
    if (size == 0) break;
    body.append(bytes.substr(line_end + 2, size));
    bytes.remove_prefix(line_end + 2 + size + 2);
  }
  return body;
}

RequestRecord read_back(const std::string& body, bench::protocol::Endpoint endpoint) {
  RequestRecord record;
  bench::protocol::StreamReader reader;
  reader.read_as(endpoint);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream");
  for (std::size_t i = 0; i < body.size(); ++i) reader.on_body(body.substr(i, 1), 1 + i);
  reader.finish({});
  return record;
}

TEST(ResponsesEvents, OneAnswerReadsAsItsChatStreamDoes) {
  for (const auto& [reasoning, tool] :
       {std::pair<std::int64_t, std::string>{-1, ""}, {3, ""}, {2, "get_weather"}}) {
    SCOPED_TRACE(reasoning);
    const std::string responses = render(setup(true, 9, reasoning, tool));
    const std::string chat = render(setup(false, 9, reasoning, tool));
    EXPECT_NE(responses.find("event: response.created\n"), std::string::npos);
    EXPECT_NE(responses.find("event: response.incomplete\n"), std::string::npos);  // the length
    EXPECT_EQ(responses.find("[DONE]"), std::string::npos);
    const RequestRecord r = read_back(responses, bench::protocol::Endpoint::responses);
    const RequestRecord c = read_back(chat, bench::protocol::Endpoint::chat);
    EXPECT_TRUE(r.ok()) << r.error_message;
    EXPECT_EQ(r.text_chunk_ns.size(), c.text_chunk_ns.size());
    EXPECT_EQ(r.prompt_tokens, 20);
    EXPECT_EQ(r.completion_tokens, c.completion_tokens);
    EXPECT_EQ(r.cached_prompt_tokens, 8);
    EXPECT_EQ(r.reasoning_tokens, c.reasoning_tokens);
    EXPECT_EQ(r.reasoning_chunks, c.reasoning_chunks);
    EXPECT_EQ(r.tool_call_chunks, c.tool_call_chunks);
    EXPECT_EQ(r.tool_call_names, c.tool_call_names);
    EXPECT_EQ(r.tool_call_tokens, c.tool_call_tokens);
    EXPECT_EQ(r.finish_reason, "length");
  }
}

}  // namespace
