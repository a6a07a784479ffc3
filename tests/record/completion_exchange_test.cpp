// What a trace takes from an exchange: the prompt's messages, the stream flag, and the tokens
// and finish reason the response said, streamed or whole, with or without usage.
#include "bench/record/completion_exchange.hpp"

#include <gtest/gtest.h>

#include <string>

namespace completion_exchange_test {

using bench::record::Completion;
using bench::record::read_completion;
using bench::wire::Exchange;

Exchange exchange_of(const std::string& path, const std::string& body,
                     const std::string& response) {
  Exchange exchange;
  exchange.shape = bench::wire::shape_of("POST", path, body);
  exchange.request_body = body;
  exchange.response = response;
  exchange.status = bench::wire::status_of(response);
  return exchange;
}

std::string chunked_stream(const std::string& events) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx", events.size());
  return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: "
         "chunked\r\n\r\n" +
         std::string(size) + "\r\n" + events + "\r\n0\r\n\r\n";
}

std::string whole(const std::string& json) {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(json.size()) + "\r\n\r\n" + json;
}

const Completion& completion(const std::variant<Completion, std::string>& read) {
  static const Completion none;
  if (const auto* why = std::get_if<std::string>(&read)) {
    ADD_FAILURE() << "no completion: " << *why;
    return none;
  }
  return std::get<Completion>(read);
}

TEST(ReadCompletion, TakesAStreamsUsageFinishReasonAndToolCalls) {
  const std::string body =
      R"({"model":"m","stream":true,"messages":[{"role":"user","content":"list files"},)"
      R"({"role":"assistant","content":null,"tool_calls":[{"id":"1","type":"function",)"
      R"("function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"1",)"
      R"("content":"a b"}]})";
  const std::string events =
      "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"2\",\"function\":"
      "{\"name\":\"cat\",\"arguments\":\"{}\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":17,\"completion_tokens\":5}}\n\n"
      "data: [DONE]\n\n";
  const auto read =
      read_completion(exchange_of("/v1/chat/completions", body, chunked_stream(events)));
  const Completion& got = completion(read);
  EXPECT_EQ(got.model, "m");
  EXPECT_TRUE(got.streamed);
  EXPECT_EQ(got.messages.size(), 3u);
  EXPECT_TRUE(got.answers_tool);
  EXPECT_EQ(got.prompt_tokens, 17);
  EXPECT_EQ(got.completion_tokens, 5);
  EXPECT_EQ(got.finish_reason, "tool_calls");
  EXPECT_TRUE(got.replied_reasoning);
  EXPECT_TRUE(got.replied_tool_call);
  EXPECT_FALSE(got.replied_text);
}

TEST(ReadCompletion, ReadsAWholeResponseAndKeepsItsTextWhenItHasNoUsage) {
  const std::string body =
      R"({"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]})";
  const auto read = read_completion(
      exchange_of("/v1/chat/completions", body,
                  whole(R"({"choices":[{"message":{"role":"assistant","content":"one two three"},)"
                        R"("finish_reason":"length"}]})")));
  const Completion& got = completion(read);
  EXPECT_FALSE(got.streamed);
  EXPECT_FALSE(got.answers_tool);
  EXPECT_FALSE(got.prompt_tokens);
  EXPECT_FALSE(got.completion_tokens);
  EXPECT_EQ(got.finish_reason, "length");
  EXPECT_TRUE(got.replied_text);
  EXPECT_NE(got.reply_text.find("one two three"), std::string::npos);
}

TEST(ReadCompletion, ACompletionsPromptIsOneUserMessage) {
  const auto read = read_completion(exchange_of(
      "/v1/completions", R"({"model":"m","prompt":"a b c","stream":true})",
      chunked_stream("data: {\"choices\":[{\"text\":\" x\",\"finish_reason\":\"stop\"}],"
                     "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n")));
  const Completion& got = completion(read);
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages[0]["role"], "user");
  EXPECT_EQ(got.messages[0]["content"], "a b c");
  EXPECT_EQ(got.prompt_tokens, 3);
  EXPECT_EQ(got.finish_reason, "stop");
}

TEST(ReadCompletion, SaysWhyAnExchangeIsNoCompletion) {
  const std::string chat = R"({"model":"m","messages":[{"role":"user","content":"hi"}]})";
  const std::string ok = whole(R"({"choices":[]})");
  Exchange models;
  models.shape = bench::wire::shape_of("GET", "/v1/models", "");
  models.status = 200;
  EXPECT_EQ(std::get<std::string>(read_completion(models)), "GET /v1/models: not a completion");
  EXPECT_EQ(std::get<std::string>(read_completion(
                exchange_of("/v1/chat/completions", chat,
                            "HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}"))),
            "status 400");
  EXPECT_EQ(std::get<std::string>(read_completion(exchange_of("/v1/chat/completions", "{", ok))),
            "the request body is not a JSON object");
  EXPECT_EQ(std::get<std::string>(
                read_completion(exchange_of("/v1/completions", R"({"prompt":[1,2,3]})", ok))),
            "\"prompt\" is not a string (token ids and lists are not read)");
  EXPECT_EQ(std::get<std::string>(read_completion(exchange_of(
                "/v1/chat/completions", chat, "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}"))),
            "the response ends before its body does");
}

}  // namespace completion_exchange_test
