// The embedded server's non-streamed answers ("stream": false) over real loopback sockets: one
// JSON body in OpenAI's whole shape, sent when the stream would have ended, logged in the truth
// log as a streamed request is.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "raw_http.hpp"

namespace {

using bench::sim::SimOptions;
using bench::sim::SimServer;
using bench::testing::post;
using bench::testing::quick_sim;
using bench::testing::RawConnection;
using bench::testing::RawResponse;
using nlohmann::json;

const std::string kWholeChatBody =
    R"({"model":"m","messages":[{"role":"user","content":"one two three"}],"max_tokens":6,)"
    R"("stream":false,"tools":[{"type":"function","function":{"name":"lookup"}}],)"
    R"("tool_choice":"required"})";

std::vector<json> truth_log_lines(const std::string& path) {
  std::vector<json> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

TEST(SimServerWhole, AnswersAChatRequestWithOneChatCompletionObject) {
  SimOptions options = quick_sim();
  options.reasoning_tokens = 2;
  options.prefix_cache = true;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/chat/completions", kWholeChatBody));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  EXPECT_FALSE(response.chunked);
  EXPECT_NE(response.head.find("Content-Type: application/json"), std::string::npos);
  const json body = json::parse(response.body);
  EXPECT_EQ(body["object"], "chat.completion");
  EXPECT_EQ(body["model"], "m");
  EXPECT_TRUE(body["id"].get<std::string>().starts_with("chatcmpl-"));
  EXPECT_TRUE(body["created"].is_number_integer());
  const json& choice = body["choices"][0];
  EXPECT_EQ(choice["message"]["role"], "assistant");
  EXPECT_FALSE(choice["message"]["reasoning_content"].get<std::string>().empty());
  EXPECT_EQ(choice["message"]["tool_calls"][0]["function"]["name"], "lookup");
  EXPECT_EQ(choice["finish_reason"], "length");  // max_tokens reached, as its stream would say
  EXPECT_EQ(body["usage"]["completion_tokens"], 6);
  EXPECT_EQ(body["usage"]["completion_tokens_details"]["reasoning_tokens"], 2);
  EXPECT_TRUE(body["usage"]["prompt_tokens_details"]["cached_tokens"].is_number_integer());
}

TEST(SimServerWhole, SendsTheBodyWhenTheStreamWouldHaveEndedAndLogsItAsOne) {
  const std::string path = ::testing::TempDir() + "/sim-whole-trace.jsonl";
  {
    SimOptions options = quick_sim();
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    connection.send(
        post("/v1/completions",
             R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":false})"));
    const RawResponse response = connection.read_response();
    ASSERT_EQ(response.status, 200);
    EXPECT_EQ(json::parse(response.body)["object"], "text_completion");
  }
  const std::vector<json> lines = truth_log_lines(path);
  ASSERT_EQ(lines.size(), 1u);
  const json& record = lines[0];
  EXPECT_EQ(record["stream"], false);
  EXPECT_EQ(record["outcome"], "ok");
  EXPECT_EQ(record["completion_tokens"], 4);
  EXPECT_EQ(record["prompt_tokens"], 3);
  EXPECT_TRUE(record["chunk_ns"].empty());  // one body: no chunk to time
  EXPECT_EQ(record["first_chunk_ns"], -1);
  EXPECT_NE(record["reply_hash"], "0000000000000000");
  // TTFT 5 ms, then 1 ms for each of the 3 later tokens: the body waits for the last.
  const std::int64_t wait_ns =
      record["end_ns"].get<std::int64_t>() - record["arrival_ns"].get<std::int64_t>();
  EXPECT_GE(wait_ns, 7'500'000);
  EXPECT_LT(wait_ns, 1'000'000'000);
}

TEST(SimServerWhole, AnswersAResponsesRequestWithItsResponseObject) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(
      post("/v1/responses", R"({"model":"m","input":"one two","max_output_tokens":3})"));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  const json body = json::parse(response.body);
  EXPECT_EQ(body["object"], "response");
  EXPECT_EQ(body["status"], "incomplete");
  EXPECT_EQ(body["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(body["output"][0]["type"], "message");
  EXPECT_FALSE(body["output"][0]["content"][0]["text"].get<std::string>().empty());
  EXPECT_EQ(body["usage"]["output_tokens"], 3);
}

}  // namespace
