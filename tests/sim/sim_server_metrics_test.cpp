// The simulator's GET /metrics over loopback, read back with bench's own exposition parser and
// vLLM name map: the two must agree, and the counts must be the ones the responses carried.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/server_metrics/exposition.hpp"
#include "bench/server_metrics/snapshot.hpp"
#include "bench/sim/sim_server.hpp"
#include "raw_http.hpp"

namespace {

using bench::server_metrics::parse_exposition;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::ServerFamily;
using bench::server_metrics::Snapshot;
using bench::sim::SimOptions;
using bench::sim::SimServer;
using bench::testing::post;
using bench::testing::RawConnection;
using bench::testing::RawResponse;
using nlohmann::json;

SimOptions fast_sim() {
  SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 1;
  return options;
}

Snapshot scrape(RawConnection& connection) {
  connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.head.find("text/plain; version=0.0.4"), std::string::npos) << response.head;
  const auto parsed = parse_exposition(response.body);
  EXPECT_TRUE(parsed.ok()) << parsed.error->describe() << "\n" << response.body;
  return read_snapshot(parsed.exposition);
}

// usage.prompt_tokens of the stream's last usage chunk.
std::int64_t prompt_tokens_of(const std::string& sse_body) {
  std::int64_t prompt_tokens = -1;
  std::istringstream in(sse_body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("data: {", 0) != 0) continue;
    const json chunk = json::parse(line.substr(6));
    if (chunk.contains("usage") && chunk["usage"].is_object()) {
      prompt_tokens = chunk["usage"]["prompt_tokens"].get<std::int64_t>();
    }
  }
  return prompt_tokens;
}

TEST(SimServerMetrics, StartsAtZeroInVllmsNames) {
  SimServer server(fast_sim());
  RawConnection connection(server.port());
  const Snapshot snapshot = scrape(connection);
  EXPECT_EQ(snapshot.family, ServerFamily::vllm);
  EXPECT_EQ(snapshot.requests_running, 0);
  EXPECT_EQ(snapshot.prompt_tokens, 0);
  EXPECT_EQ(snapshot.generation_tokens, 0);
  EXPECT_EQ(snapshot.requests_succeeded, 0);
}

TEST(SimServerMetrics, CountsTheTokensItsResponsesCarried) {
  SimServer server(fast_sim());
  RawConnection connection(server.port());
  const std::string body =
      R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true,)"
      R"("stream_options":{"include_usage":true}})";
  std::int64_t prompt_tokens = 0;
  for (int i = 0; i < 2; ++i) {
    connection.send(post("/v1/completions", body));
    const RawResponse response = connection.read_response();
    ASSERT_EQ(response.status, 200);
    const std::int64_t usage_prompt_tokens = prompt_tokens_of(response.body);
    ASSERT_GT(usage_prompt_tokens, 0);
    prompt_tokens += usage_prompt_tokens;
  }
  const Snapshot snapshot = scrape(connection);
  EXPECT_EQ(snapshot.prompt_tokens, prompt_tokens);
  EXPECT_EQ(snapshot.generation_tokens, 8);
  EXPECT_EQ(snapshot.requests_succeeded, 2);
  EXPECT_EQ(snapshot.requests_running, 0);
}

TEST(SimServerMetrics, EscapesTheModelNameLabel) {
  SimOptions options = fast_sim();
  options.model = "org/odd\"name\\v1";
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto parsed = parse_exposition(connection.read_response().body);
  ASSERT_TRUE(parsed.ok()) << parsed.error->describe();
  const auto* family = parsed.exposition.family("vllm:prompt_tokens_total");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(*family->samples.at(0).label("model_name"), "org/odd\"name\\v1");
}

TEST(SimServerMetrics, RefusesAPost) {
  SimServer server(fast_sim());
  RawConnection connection(server.port());
  connection.send(post("/metrics", "{}"));
  EXPECT_EQ(connection.read_response().status, 405);
}

}  // namespace
