// The simulator's GET /metrics over loopback, read back with bench's own exposition parser and
// vLLM name map: the two must agree, and the counts must be the ones the responses carried.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bench/server_metrics/exposition.hpp"
#include "bench/server_metrics/snapshot.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "raw_http.hpp"

namespace {

using bench::server_metrics::parse_exposition;
using bench::server_metrics::percentile_range;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::ServerFamily;
using bench::server_metrics::Snapshot;
using bench::sim::SimOptions;
using bench::sim::SimServer;
using bench::testing::post;
using bench::testing::quick_sim;
using bench::testing::RawConnection;
using bench::testing::RawResponse;
using nlohmann::json;

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
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  const Snapshot snapshot = scrape(connection);
  EXPECT_EQ(snapshot.family, ServerFamily::vllm);
  EXPECT_EQ(snapshot.requests_running, 0);
  EXPECT_EQ(snapshot.prompt_tokens, 0);
  EXPECT_EQ(snapshot.generation_tokens, 0);
  EXPECT_EQ(snapshot.requests_succeeded, 0);
}

TEST(SimServerMetrics, CountsTheTokensItsResponsesCarried) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  const std::string body = R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true,)"
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

TEST(SimServerMetrics, ItsTtftAndE2eHistogramsHoldItsOwnTimes) {
  SimOptions options;
  options.ttft_ms = 30;  // well inside vLLM's 0.02-0.04 s TTFT bucket
  options.tpot_ms = 1;
  SimServer server(options);
  RawConnection connection(server.port());
  const std::string body = R"({"model":"m","prompt":"one two","max_tokens":3,"stream":true})";
  for (int i = 0; i < 3; ++i) {
    connection.send(post("/v1/completions", body));
    ASSERT_EQ(connection.read_response().status, 200);
  }
  const Snapshot snapshot = scrape(connection);
  ASSERT_TRUE(snapshot.ttft_seconds.has_value());
  ASSERT_TRUE(snapshot.e2e_seconds.has_value());
  EXPECT_EQ(snapshot.ttft_seconds->count, 3);
  EXPECT_EQ(snapshot.e2e_seconds->count, 3);
  const auto ttft = percentile_range(*snapshot.ttft_seconds, 99);
  ASSERT_TRUE(ttft.has_value());
  EXPECT_EQ(ttft->lower, 0.02);
  EXPECT_EQ(ttft->upper, 0.04);
  EXPECT_GT(snapshot.ttft_seconds->sum, 3 * 0.03 - 1e-9);
  const auto e2e = percentile_range(*snapshot.e2e_seconds, 50);
  ASSERT_TRUE(e2e.has_value());
  EXPECT_EQ(e2e->upper, 0.3);
}

TEST(SimServerMetrics, ItsItlTpotAndQueueTimeHistogramsHoldItsOwnTimes) {
  SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 15;  // well inside vLLM's 0.01-0.025 s ITL and TPOT bucket
  SimServer server(options);
  RawConnection connection(server.port());
  const std::string body = R"({"model":"m","prompt":"one two","max_tokens":4,"stream":true})";
  for (int i = 0; i < 2; ++i) {
    connection.send(post("/v1/completions", body));
    ASSERT_EQ(connection.read_response().status, 200);
  }
  const Snapshot snapshot = scrape(connection);
  ASSERT_TRUE(snapshot.itl_seconds.has_value());
  EXPECT_EQ(snapshot.itl_seconds->count, 2 * 3);  // a token a chunk: three gaps a request
  const auto itl = percentile_range(*snapshot.itl_seconds, 50);
  ASSERT_TRUE(itl.has_value());
  EXPECT_EQ(itl->lower, 0.01);
  EXPECT_EQ(itl->upper, 0.025);
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 2);
  EXPECT_EQ(percentile_range(*snapshot.tpot_seconds, 99)->upper, 0.025);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  EXPECT_EQ(snapshot.queue_time_seconds->count, 2);
  EXPECT_EQ(snapshot.queue_time_seconds->sum, 0);  // the fixed profile queues nothing
}

TEST(SimServerMetrics, WaitingRequestsAndKvUsageComeFromTheEngine) {
  SimOptions options;
  options.profile = "tiny";
  options.engine.max_running_requests = 1;  // the second request must wait
  options.engine.kv_cache_tokens = 1000;
  options.engine.step_us = 20'000;  // 20 tokens take 0.4 s: time enough to look
  SimServer server(options);
  RawConnection first(server.port());
  RawConnection second(server.port());
  const std::string body = R"({"model":"m","prompt":"one two","max_tokens":20,"stream":true})";
  first.send(post("/v1/completions", body));
  second.send(post("/v1/completions", body));
  RawConnection metrics(server.port());
  Snapshot snapshot;
  // Both requests reach the server within a few ms, and its next step takes the first into
  // the engine; look until it has.
  for (int attempt = 0; attempt < 100; ++attempt) {
    snapshot = scrape(metrics);
    if (snapshot.requests_running.value_or(0) > 0 && snapshot.requests_waiting.value_or(0) > 0) {
      break;
    }
  }
  EXPECT_EQ(snapshot.requests_running, 1);
  EXPECT_EQ(snapshot.requests_waiting, 1);
  ASSERT_TRUE(snapshot.kv_cache_usage_ratio.has_value());
  // One request holds its prompt and its 20 output tokens of the 1000-token budget.
  EXPECT_GT(*snapshot.kv_cache_usage_ratio, 0.02);
  EXPECT_LT(*snapshot.kv_cache_usage_ratio, 0.1);
  EXPECT_EQ(first.read_response().status, 200);
  EXPECT_EQ(second.read_response().status, 200);
  const Snapshot after = scrape(metrics);
  EXPECT_EQ(after.requests_running, 0);
  EXPECT_EQ(after.requests_waiting, 0);
  EXPECT_EQ(after.kv_cache_usage_ratio, 0.0);
  // The second waited for the first's 20 steps of 20 ms at least: its queue time says so.
  ASSERT_TRUE(after.queue_time_seconds.has_value());
  EXPECT_EQ(after.queue_time_seconds->count, 2);
  EXPECT_GE(percentile_range(*after.queue_time_seconds, 99)->lower, 0.3);
}

TEST(SimServerMetrics, AModelWithoutAKvBudgetExposesNoKvUsage) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  const Snapshot snapshot = scrape(connection);
  EXPECT_EQ(snapshot.requests_waiting, 0);
  EXPECT_FALSE(snapshot.kv_cache_usage_ratio.has_value());
}

TEST(SimServerMetrics, EscapesTheModelNameLabel) {
  SimOptions options = quick_sim();
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

// --metrics-family: the same counts in SGLang's and llama.cpp's names, read back through their
// name maps after one request.
Snapshot after_one_request(bench::sim::MetricsFamily family) {
  SimOptions options = quick_sim();
  options.metrics_family = family;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send(post("/v1/completions",
                       R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true})"));
  EXPECT_EQ(connection.read_response().status, 200);
  return scrape(connection);
}

TEST(SimServerMetrics, WritesSglangsNamesByFlag) {
  const Snapshot snapshot = after_one_request(bench::sim::MetricsFamily::sglang);
  EXPECT_EQ(snapshot.family, ServerFamily::sglang);
  EXPECT_EQ(snapshot.generation_tokens, 4);
  EXPECT_GT(snapshot.prompt_tokens.value_or(0), 0);
  EXPECT_EQ(snapshot.requests_running, 0);
  ASSERT_TRUE(snapshot.ttft_seconds.has_value());
  EXPECT_EQ(snapshot.ttft_seconds->count, 1);
  ASSERT_TRUE(snapshot.itl_seconds.has_value());
  EXPECT_EQ(snapshot.itl_seconds->count, 3);
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 1);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  EXPECT_EQ(snapshot.queue_time_seconds->count, 1);
}

TEST(SimServerMetrics, WritesLlamaCppsNamesByFlag) {
  const Snapshot snapshot = after_one_request(bench::sim::MetricsFamily::llamacpp);
  EXPECT_EQ(snapshot.family, ServerFamily::llamacpp);
  EXPECT_EQ(snapshot.generation_tokens, 4);
  EXPECT_EQ(snapshot.requests_waiting, 0);
  EXPECT_FALSE(snapshot.ttft_seconds.has_value());  // llama.cpp has no histograms
}

TEST(SimServerMetrics, SaysItsVersionAndMaxModelLenAsVllmDoes) {
  SimOptions options = quick_sim();
  options.max_model_len = 4096;
  SimServer server(options);
  RawConnection connection(server.port());
  connection.send("GET /version HTTP/1.1\r\nHost: x\r\n\r\n");
  const RawResponse version = connection.read_response();
  EXPECT_EQ(version.status, 200);
  EXPECT_EQ(json::parse(version.body).at("version"), "bench-sim");
  connection.send("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
  const json models = json::parse(connection.read_response().body);
  EXPECT_EQ(models.at("data").at(0).at("max_model_len"), 4096);
}

TEST(SimServerMetrics, RefusesAPost) {
  SimServer server(quick_sim());
  RawConnection connection(server.port());
  connection.send(post("/metrics", "{}"));
  EXPECT_EQ(connection.read_response().status, 405);
}

}  // namespace

namespace {

// The DCGM-exporter-shaped series: one per GPU, the energy in whole mJ, read back by bench's
// parser into joules. With no idle draw the energy is the tokens' alone, to the counters' mJ.
TEST(SimServerMetrics, ItsGpusEnergyIsItsTokensAtTheModelsJoules) {
  bench::sim::SimOptions options = quick_sim();
  options.power = {
      .gpus = 4, .idle_watts = 0, .joules_per_output_token = 0.5, .joules_per_input_token = 0.01};
  SimServer server(options);
  RawConnection connection(server.port());
  const Snapshot idle = scrape(connection);
  ASSERT_TRUE(idle.gpu_energy_joules.has_value());
  EXPECT_EQ(*idle.gpu_energy_joules, 0.0);
  EXPECT_EQ(idle.gpu_energy_series, 4);
  EXPECT_EQ(idle.gpu_power_watts, 0.0);
  const std::string body = R"({"model":"m","prompt":"one two three","max_tokens":4,"stream":true,)"
                           R"("stream_options":{"include_usage":true}})";
  connection.send(post("/v1/completions", body));
  const RawResponse response = connection.read_response();
  ASSERT_EQ(response.status, 200);
  const double modelled = 4 * 0.5 + static_cast<double>(prompt_tokens_of(response.body)) * 0.01;
  const Snapshot after = scrape(connection);
  ASSERT_TRUE(after.gpu_energy_joules.has_value());
  EXPECT_NEAR(*after.gpu_energy_joules, modelled, 4 * 0.001);  // 4 counters of whole mJ
  ASSERT_TRUE(after.gpu_power_watts.has_value());
  EXPECT_GT(*after.gpu_power_watts, 0.0);  // the tokens of the last second
}

TEST(SimServerMetrics, AnIdleGpuDrawsItsIdlePower) {
  bench::sim::SimOptions options = quick_sim();
  options.power.gpus = 2;
  options.power.idle_watts = 80;
  SimServer server(options);
  RawConnection connection(server.port());
  const Snapshot snapshot = scrape(connection);
  EXPECT_EQ(snapshot.gpu_power_watts, 160.0);  // both GPUs
  EXPECT_EQ(snapshot.gpu_energy_series, 2);
}

}  // namespace
