// The embedded server over real loopback sockets, byte for byte: routes, OpenAI stream shape,
// keep-alive and pipelining, errors as JSON bodies, clients that vanish, the truth log.
#include "bench/sim/sim_server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

const std::string kStreamBody =
    R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true,)"
    R"("stream_options":{"include_usage":true}})";

// The `data:` payloads of an SSE body, in order.
std::vector<std::string> data_lines(const std::string& body) {
  std::vector<std::string> lines;
  std::istringstream in(body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("data: ", 0) == 0) lines.push_back(line.substr(6));
  }
  return lines;
}

TEST(SimServer, ListsItsModel) {
  SimOptions options = quick_sim();
  options.model = "org/m-8b";
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(json::parse(response.body)["data"][0]["id"], "org/m-8b");
}

TEST(SimServer, StreamsACompletionInVllmsShape) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", kStreamBody));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  EXPECT_TRUE(response.chunked);
  EXPECT_NE(response.head.find("text/event-stream"), std::string::npos);
  const std::vector<std::string> lines = data_lines(response.body);
  ASSERT_EQ(lines.size(), 6u);  // 4 tokens, the usage chunk, [DONE]
  for (int i = 0; i < 4; ++i) {
    const json chunk = json::parse(lines[i]);
    EXPECT_EQ(chunk["object"], "text_completion");
    EXPECT_FALSE(chunk["choices"][0]["text"].get<std::string>().empty());
    EXPECT_EQ(chunk["choices"][0]["finish_reason"], i == 3 ? json("length") : json(nullptr));
  }
  const json usage = json::parse(lines[4]);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 3);
  EXPECT_EQ(usage["usage"]["completion_tokens"], 4);
  EXPECT_EQ(lines[5], "[DONE]");
}

TEST(SimServer, OpensAChatStreamWithARoleOnlyDelta) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/v1/chat/completions",
                       R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":2,)"
                       R"("stream":true})"));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  const std::vector<std::string> lines = data_lines(response.body);
  ASSERT_EQ(lines.size(), 4u);  // role, 2 tokens, [DONE]; no usage chunk was asked for
  EXPECT_EQ(json::parse(lines[0])["choices"][0]["delta"]["role"], "assistant");
  EXPECT_EQ(json::parse(lines[0])["choices"][0]["delta"]["content"], "");
  EXPECT_FALSE(json::parse(lines[1])["choices"][0]["delta"]["content"].get<std::string>().empty());
}

TEST(SimServer, AnswersANonStreamedRequestWithOneJsonBody) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", R"({"prompt":"a b","max_tokens":3})"));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  EXPECT_FALSE(response.chunked);
  const json body = json::parse(response.body);
  EXPECT_EQ(body["usage"]["completion_tokens"], 3);
  EXPECT_EQ(body["usage"]["prompt_tokens"], 2);
  EXPECT_EQ(body["choices"][0]["finish_reason"], "length");
}

TEST(SimServer, ServesManyRequestsOnOneKeepAliveConnectionIncludingPipelinedOnes) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", kStreamBody));
  ASSERT_EQ(connection.read_response().status, 200);
  // Two requests in one write: the second is answered after the first, on the same socket.
  connection.send(post("/v1/completions", kStreamBody) + "GET /v1/models HTTP/1.1\r\n\r\n");
  const RawResponse first = connection.read_response();
  const RawResponse second = connection.read_response();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(data_lines(first.body).size(), 6u);
  EXPECT_EQ(second.status, 200);
  EXPECT_NE(second.body.find("bench-sim"), std::string::npos);
  EXPECT_EQ(server.requests_served(), 3u);
}

TEST(SimServer, ClosesAfterAResponseWhenAskedTo) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", kStreamBody, /*keep_alive=*/false));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.head.find("Connection: close"), std::string::npos);
  EXPECT_TRUE(connection.closed_by_peer());
}

struct ErrorCase {
  std::string request;
  int status;
  std::string type;
};

class ErrorResponse : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ErrorResponse, IsAJsonErrorObjectWithTheStatus) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(GetParam().request);
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, GetParam().status);
  const json body = json::parse(response.body, nullptr, false);
  ASSERT_TRUE(body.is_object()) << response.body;
  EXPECT_EQ(body["error"]["type"], GetParam().type);
  EXPECT_EQ(body["error"]["code"], GetParam().status);
  EXPECT_FALSE(body["error"]["message"].get<std::string>().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Sim, ErrorResponse,
    ::testing::Values(
        ErrorCase{"GET /nope HTTP/1.1\r\n\r\n", 404, "not_found_error"},
        ErrorCase{"GET /v1/completions HTTP/1.1\r\n\r\n", 405, "invalid_request_error"},
        ErrorCase{post("/v1/completions", "{oops"), 400, "invalid_request_error"},
        ErrorCase{post("/v1/chat/completions", R"({"prompt":"x"})"), 400, "invalid_request_error"},
        ErrorCase{"POST /v1/completions HTTP/1.1\r\nTransfer-Encoding: chunked"
                  "\r\n\r\n",
                  411, "invalid_request_error"},
        ErrorCase{"BROKEN\r\n\r\n", 400, "invalid_request_error"}));

// POST /v1/messages answers its refusals in Anthropic's error shape (its type "error", the
// error's type and message; https://docs.anthropic.com/en/api/errors), chat's paths in OpenAI's.
TEST(SimServer, MessagesErrorsAreInAnthropicsShape) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  for (const char* body :
       {R"({"model":"m","messages":[{"role":"user","content":"x"}]})", "{oops"}) {
    connection.send(post("/v1/messages", body));
    const RawResponse response = connection.read_response();
    EXPECT_EQ(response.status, 400);
    const json error = json::parse(response.body, nullptr, false);
    ASSERT_TRUE(error.is_object()) << response.body;
    EXPECT_EQ(error["type"], "error") << response.body;
    EXPECT_EQ(error["error"]["type"], "invalid_request_error") << response.body;
    EXPECT_FALSE(error["error"]["message"].get<std::string>().empty());
    EXPECT_FALSE(error["error"].contains("code"));
  }
  // The same connection's next request, on chat's path, is answered in OpenAI's shape again.
  connection.send(post("/v1/chat/completions", R"({"prompt":"x"})"));
  const json chat = json::parse(connection.read_response().body, nullptr, false);
  EXPECT_EQ(chat["error"]["code"], 400) << chat.dump();
  EXPECT_FALSE(chat.contains("type"));
}

TEST(SimServer, StopsEarlyAtEosUnlessIgnoreEosIsSent) {
  SimOptions options = quick_sim();
  options.tpot_ms = 0;
  options.eos_probability = 0.5;
  SimServer server(options);
  RawConnection connection(server.port());
  int shorter = 0;
  for (int i = 0; i < 20; ++i) {
    connection.send(post("/v1/completions", R"({"prompt":"x","max_tokens":50})"));
    const json body = json::parse(connection.read_response().body);
    if (body["usage"]["completion_tokens"] < 50) {
      ++shorter;
      EXPECT_EQ(body["choices"][0]["finish_reason"], "stop");
    }
  }
  EXPECT_GT(shorter, 15);  // P(50 tokens without EOS at p = 0.5) is negligible
  connection.send(post("/v1/completions", R"({"prompt":"x","max_tokens":50,"ignore_eos":true})"));
  EXPECT_EQ(json::parse(connection.read_response().body)["usage"]["completion_tokens"], 50);
}

TEST(SimServer, SurvivesClientsThatDisconnectMidStream) {
  SimOptions options = quick_sim();
  options.tpot_ms = 5;
  SimServer server(options);
  for (int i = 0; i < 20; ++i) {
    RawConnection connection(server.port());
    connection.send(post("/v1/completions", R"({"prompt":"x","max_tokens":1000,"stream":true})"));
  }  // each connection closes here, mid-stream
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", kStreamBody));
  EXPECT_EQ(connection.read_response().status, 200);
}

TEST(SimServer, WritesATruthLogLinePerRequestWithChunkTimes) {
  const std::string path = ::testing::TempDir() + "/sim-trace.jsonl";
  {
    SimOptions options = quick_sim();
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    for (int i = 0; i < 3; ++i) {
      connection.send(post("/v1/completions", kStreamBody));
      ASSERT_EQ(connection.read_response().status, 200);
    }
  }
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const json record = json::parse(line);
    ++lines;
    EXPECT_EQ(record["outcome"], "ok");
    EXPECT_EQ(record["completion_tokens"], 4);
    EXPECT_EQ(record["prompt_tokens"], 3);
    ASSERT_EQ(record["chunk_ns"].size(), 4u);
    const std::int64_t arrival = record["arrival_ns"];
    const std::int64_t first = record["chunk_ns"][0];
    EXPECT_EQ(record["first_chunk_ns"], first);
    // TTFT 5 ms, then 1 ms per token; generous bounds for a loaded CI machine.
    EXPECT_GE(first - arrival, 4'500'000);
    EXPECT_LT(first - arrival, 100'000'000);
    for (int i = 1; i < 4; ++i) {
      EXPECT_GE(record["chunk_ns"][i].get<std::int64_t>(),
                record["chunk_ns"][i - 1].get<std::int64_t>());
    }
    EXPECT_GE(record["end_ns"].get<std::int64_t>(), record["chunk_ns"][3].get<std::int64_t>());
  }
  EXPECT_EQ(lines, 3);
}

TEST(SimServer, RefusesToStartOnAPortInUse) {
  SimServer first(quick_sim());
  SimOptions options = quick_sim();
  options.port = first.port();
  EXPECT_THROW(SimServer second(options), std::runtime_error);
}

}  // namespace
