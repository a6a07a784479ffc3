// The embedded server's faults and profiles over real loopback sockets: statuses with
// Retry-After, a real RST, a real stall, llama.cpp's close after a keep-alive stream, requests
// too large for the KV budget, the scheduler's facts in the truth log, and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

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
using Ending = RawConnection::Ending;

std::string stream_body(int max_tokens, int words = 3) {
  std::string prompt;
  for (int i = 0; i < words; ++i) prompt += " w";
  return R"({"prompt":")" + prompt + R"(","max_tokens":)" + std::to_string(max_tokens) +
         R"(,"stream":true,"stream_options":{"include_usage":true}})";
}

std::vector<json> read_trace(const std::string& path) {
  std::vector<json> records;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) records.push_back(json::parse(line));
  return records;
}

// 429 and 503 say when to retry (Retry-After); a 500 does not. All keep the connection.
TEST(SimServerFaults, FailedRequestsAnswerWithTheirStatusAndAReadableJsonError) {
  for (const int status : {429, 503, 500}) {
    SCOPED_TRACE(testing::Message() << "HTTP " << status);
    SimOptions options = quick_sim();
    (status == 429   ? options.fail_429_fraction
     : status == 503 ? options.fail_503_fraction
                     : options.fail_500_fraction) = 1.0;
    SimServer server(options);
    RawConnection connection(server.port());
    connection.send(post("/v1/completions", stream_body(4)));
    const RawResponse response = connection.read_response();
    EXPECT_EQ(response.status, status);
    EXPECT_EQ(response.head.find("Retry-After: 1\r\n") != std::string::npos, status != 500)
        << response.head;
    EXPECT_NE(json::parse(response.body)["error"]["message"].get<std::string>().find("simulated"),
              std::string::npos);
    // The connection stays usable, as after any error with a body.
    connection.send("GET /v1/models HTTP/1.1\r\n\r\n");
    EXPECT_EQ(connection.read_response().status, 200);
  }
}

TEST(SimServerFaults, AResetCutsTheStreamMidWayWithAnRst) {
  SimOptions options = quick_sim();
  options.reset_fraction = 1.0;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", stream_body(10)));
  std::string bytes;
  EXPECT_EQ(connection.read_to_end(bytes), Ending::reset);
  EXPECT_NE(bytes.find("200 OK"), std::string::npos);
  EXPECT_NE(bytes.find("data: {"), std::string::npos);
  EXPECT_EQ(bytes.find("[DONE]"), std::string::npos);
  EXPECT_EQ(bytes.find("\r\n0\r\n\r\n"), std::string::npos);  // the body never ended
}

TEST(SimServerFaults, AStallSendsNothingForItsLengthThenTheRest) {
  const std::string path = ::testing::TempDir() + "/sim-stall-trace.jsonl";
  {
    SimOptions options = quick_sim();
    options.stall_fraction = 1.0;
    options.stall_s = 0.3;
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    const auto start = std::chrono::steady_clock::now();
    connection.send(post("/v1/completions", stream_body(10)));
    const RawResponse response = connection.read_response();
    EXPECT_EQ(response.status, 200);
    EXPECT_NE(response.body.find("[DONE]"), std::string::npos);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  }
  const std::vector<json> trace = read_trace(path);
  ASSERT_EQ(trace.size(), 1u);
  const json& chunks = trace[0]["chunk_ns"];
  ASSERT_EQ(chunks.size(), 10u);
  EXPECT_GE(chunks[5].get<std::int64_t>() - chunks[4].get<std::int64_t>(), 300'000'000);
  EXPECT_LT(chunks[4].get<std::int64_t>() - chunks[3].get<std::int64_t>(), 100'000'000);
  EXPECT_EQ(trace[0]["faults"], json::parse(R"(["stall"])"));
  EXPECT_EQ(trace[0]["outcome"], "ok");
}

TEST(SimServerFaults, AJitteredRequestReachesTheModelItsDrawnWaitAfterArrival) {
  const std::string path = ::testing::TempDir() + "/sim-jitter-trace.jsonl";
  {
    SimOptions options = quick_sim();  // ttft 5 ms
    options.jitter_ms = 40;
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    for (int i = 0; i < 4; ++i) {
      connection.send(post("/v1/completions", stream_body(2)));
      EXPECT_EQ(connection.read_response().status, 200);
    }
  }
  const std::vector<json> trace = read_trace(path);
  ASSERT_EQ(trace.size(), 4u);
  std::int64_t total_jitter_ns = 0;
  for (const json& record : trace) {
    const auto jitter_ns = record["jitter_ns"].get<std::int64_t>();
    EXPECT_GE(jitter_ns, 0);
    EXPECT_LE(jitter_ns, 80'000'000);
    const std::int64_t ttft_ns =
        record["first_chunk_ns"].get<std::int64_t>() - record["arrival_ns"].get<std::int64_t>();
    EXPECT_GE(ttft_ns, jitter_ns + 5'000'000);
    EXPECT_LT(ttft_ns, jitter_ns + 5'000'000 + 50'000'000);  // a loaded loop's lateness
    total_jitter_ns += jitter_ns;
  }
  EXPECT_GT(total_jitter_ns, 0);
  EXPECT_EQ(trace[0]["faults"], json::parse("[]"));
}

TEST(SimServerFaults, LlamaCppDialectSaysKeepAliveThenClosesAfterTheStream) {
  SimOptions options = quick_sim();
  options.close_after_stream = true;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", stream_body(3)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.head.find("Keep-Alive: timeout=5, max=100"), std::string::npos);
  EXPECT_TRUE(connection.closed_by_peer());
}

TEST(SimServerFaults, RefusesARequestThatCanNeverFitTheKvBudgetWithVllmsMessage) {
  SimOptions options;
  options.profile = "tiny";
  options.engine.kv_cache_tokens = 100;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", stream_body(90, /*words=*/20)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(response.body.find("maximum context length is 100 tokens"), std::string::npos)
      << response.body;
  connection.send(post("/v1/completions", stream_body(70, /*words=*/20)));  // 90 tokens: fits
  EXPECT_EQ(connection.read_response().status, 200);
}

TEST(SimServerFaults, RefusesARequestBeyondMaxModelLenWithVllmsMessages) {
  SimOptions options = quick_sim();
  options.max_model_len = 50;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/completions", stream_body(40, /*words=*/20)));  // 60 tokens
  RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(response.body.find("'max_tokens' or 'max_completion_tokens' is too large: 40. This "
                               "model's maximum context length is 50 tokens and your request "
                               "has 20 input tokens (40 > 50 - 20)."),
            std::string::npos)
      << response.body;
  connection.send(post("/v1/completions", stream_body(1, /*words=*/50)));
  response = connection.read_response();
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(response.body.find("maximum context length is 50 tokens. However, your request has "
                               "50 input tokens."),
            std::string::npos)
      << response.body;
  connection.send(post("/v1/completions", stream_body(30, /*words=*/20)));  // 50 tokens: fits
  EXPECT_EQ(connection.read_response().status, 200);
  // Without max_tokens the output stops at the context's end (45 + 5), not at the simulator's
  // default length.
  std::string prompt;
  for (int i = 0; i < 45; ++i) prompt += " w";
  connection.send(post("/v1/completions", R"({"prompt":")" + prompt + R"("})"));
  response = connection.read_response();
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body)["usage"]["completion_tokens"], 5) << response.body;
}

TEST(SimServerFaults, ABatchingProfileLogsQueueWaitPrefillAndBatchSizes) {
  const std::string path = ::testing::TempDir() + "/sim-batching-trace.jsonl";
  {
    SimOptions options;
    options.profile = "tiny";
    options.engine.max_running_requests = 2;
    options.trace_path = path;
    SimServer server(options);
    std::vector<std::unique_ptr<RawConnection>> connections;
    for (int i = 0; i < 4; ++i) {
      connections.push_back(std::make_unique<RawConnection>(server.port()));
      connections.back()->send(post("/v1/completions", stream_body(20, /*words=*/50)));
    }
    for (auto& connection : connections) EXPECT_EQ(connection->read_response().status, 200);
  }
  const std::vector<json> trace = read_trace(path);
  ASSERT_EQ(trace.size(), 4u);
  int queued = 0;
  for (const json& record : trace) {
    const std::int64_t arrival = record["arrival_ns"];
    const std::int64_t start = record["prefill_start_ns"];
    const std::int64_t end = record["prefill_end_ns"];
    EXPECT_EQ(record["queue_ns"].get<std::int64_t>(), start - arrival);
    EXPECT_GE(start, arrival);
    EXPECT_GT(end, start);
    EXPECT_GE(record["first_chunk_ns"].get<std::int64_t>(), end);  // stamped at the write
    ASSERT_EQ(record["chunk_batch"].size(), record["chunk_ns"].size());
    for (const json& batch : record["chunk_batch"]) {
      EXPECT_GE(batch.get<int>(), 1);
      EXPECT_LE(batch.get<int>(), 2);  // --max-running-requests 2
    }
    // Two of the four had to wait for a whole request (20 steps of >= 1 ms) to finish.
    if (start - arrival > 15'000'000) ++queued;
  }
  EXPECT_EQ(queued, 2);
}

TEST(SimServerFaults, AFixedProfileLeavesTheSchedulerFieldsEmpty) {
  const std::string path = ::testing::TempDir() + "/sim-fixed-trace.jsonl";
  {
    SimOptions options = quick_sim();
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    connection.send(post("/v1/completions", stream_body(3)));
    EXPECT_EQ(connection.read_response().status, 200);
  }
  const std::vector<json> trace = read_trace(path);
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_EQ(trace[0]["prefill_start_ns"], -1);
  EXPECT_EQ(trace[0]["queue_ns"], -1);
  EXPECT_TRUE(trace[0]["chunk_batch"].empty());
}

TEST(SimServerFaults, TheSameSeedMeetsTheSameFaultsInTheSameOrder) {
  const auto statuses = [](std::uint64_t seed) {
    SimOptions options = quick_sim();
    options.fail_500_fraction = 0.5;
    options.seed = seed;
    SimServer server(options);
    RawConnection connection(server.port());
    std::vector<int> seen;
    for (int i = 0; i < 24; ++i) {
      connection.send(post("/v1/completions", R"({"prompt":"x","max_tokens":1})"));
      seen.push_back(connection.read_response().status);
    }
    return seen;
  };
  const std::vector<int> first = statuses(7);
  EXPECT_EQ(statuses(7), first);
  EXPECT_NE(statuses(8), first);
  EXPECT_NE(std::count(first.begin(), first.end(), 500), 0);
  EXPECT_NE(std::count(first.begin(), first.end(), 200), 0);
}

TEST(SimServerFaults, RefusesToStartWithAnUnknownProfileOrTimeScale) {
  SimOptions options;
  options.profile = "h200-imaginary";
  EXPECT_THROW(SimServer server(options), std::invalid_argument);
  options.profile = "tiny";
  options.time_scale = 0;
  EXPECT_THROW(SimServer server(options), std::invalid_argument);
}

}  // namespace
