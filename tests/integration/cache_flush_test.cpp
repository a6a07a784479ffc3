// --flush-cache over loopback: against one serve-sim with its prefix cache, a second identical
// run is served from the cache unless bench flushes it first; a server with no flush endpoint
// is said once and the run goes on; a llama.cpp server gets "cache_prompt": false in every body.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/workload/generator_version.hpp"
#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"
#include "text_helpers.hpp"

namespace {

using bench::testing::count_of;
using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

// cached_prompt_tokens of each measured request a run saved with --save-requests.
std::vector<json> cached_tokens(const std::string& requests_path) {
  std::vector<json> cached;
  for (const json& line : bench::testing::read_jsonl(requests_path)) {
    if (!line["warmup"].get<bool>()) cached.push_back(line["cached_prompt_tokens"]);
  }
  return cached;
}

TEST(CacheFlush, AFlushedServeSimServesTheSameRunAgainWithNothingCached) {
  TempDir dir;
  ServeSimProcess serve_sim(BENCH_BINARY, {"--profile", "tiny", "--prefix-cache", "on"}, dir);
  const std::string& base_url = serve_sim.base_url();
  // The same run three times (same seed, so the same prompts): to fill the cache, then
  // without and with --flush-cache.
  std::vector<ProcessResult> runs;
  for (const std::string flush : {"", "", "--flush-cache"}) {
    if (base_url.empty()) break;
    std::vector<std::string> args = {"--base-url",
                                     base_url,
                                     "--seed",
                                     "1",
                                     "--concurrency",
                                     "4",
                                     "--num-prompts",
                                     "4",
                                     "--input-len",
                                     "128",
                                     "--output-len",
                                     "4",
                                     "--ignore-eos",
                                     "--per-chunk-usage",
                                     "off",
                                     "--save-requests",
                                     dir.file("run" + std::to_string(runs.size()) + ".jsonl"),
                                     "--output-format",
                                     "json"};
    if (!flush.empty()) args.push_back(flush);
    runs.push_back(run_process(BENCH_BINARY, bench::testing::without_answer_check(args)));
  }
  const ProcessResult& server = serve_sim.stop();
  ASSERT_FALSE(base_url.empty()) << server.err;
  ASSERT_EQ(runs.size(), 3u);
  for (const ProcessResult& run : runs) ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const json& cached : cached_tokens(dir.file("run1.jsonl"))) {
    EXPECT_GT(cached.get<std::int64_t>(), 0);  // the first run left its prompts cached
  }
  const std::vector<json> flushed = cached_tokens(dir.file("run2.jsonl"));
  ASSERT_EQ(flushed.size(), 4u);
  for (const json& cached : flushed) EXPECT_EQ(cached, 0);
  EXPECT_EQ(count_of(runs[2].err,
                     "bench: prefix cache flushed with POST /flush_cache before "
                     "each point"),
            1u)
      << runs[2].err;
  const json results = json::parse(runs[2].out);
  EXPECT_EQ(results["prefix_cache_flush"], "flush_cache");
  EXPECT_TRUE(json::parse(runs[1].out)["prefix_cache_flush"].is_null());
  // The same workload all three times, whether flushed or not.
  EXPECT_EQ(results["workload"]["fingerprint"],
            json::parse(runs[0].out)["workload"]["fingerprint"]);
  EXPECT_EQ(results["workload"]["generator_version"], bench::workload::kPromptGeneratorVersion);
  EXPECT_EQ(results["workload"]["seed"], 1);
}

TEST(CacheFlush, EachPointOfASweepOnTheEmbeddedServerStartsWithNothingCached) {
  // --reuse-prompts resends the first point's prompts: without --flush-cache the second
  // point's requests find 496 of their 512 prompt tokens cached (sim_prefix_cache_test.cpp).
  TempDir dir;
  const ProcessResult run = run_process(BENCH_BINARY, {"--sim-profile",
                                                       "tiny",
                                                       "--sim-prefix-cache",
                                                       "on",
                                                       "--concurrency",
                                                       "4,4",
                                                       "--num-prompts",
                                                       "4",
                                                       "--input-len",
                                                       "512",
                                                       "--output-len",
                                                       "4",
                                                       "--ignore-eos",
                                                       "--reuse-prompts",
                                                       "--seed",
                                                       "42",
                                                       "--flush-cache",
                                                       "--save-requests",
                                                       dir.file("requests.jsonl"),
                                                       "--output-format",
                                                       "json",
                                                       "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> cached = cached_tokens(dir.file("requests.jsonl"));
  ASSERT_EQ(cached.size(), 8u);
  for (const json& tokens : cached) EXPECT_EQ(tokens, 0);
  const json results = json::parse(run.out);
  EXPECT_EQ(results["prefix_cache_flush"], "flush_cache");
  for (const json& point : results["points"]) {
    EXPECT_EQ(point["prefix_cache_flush"], "flush_cache");
    EXPECT_EQ(point["workload"]["seed"], 42);
  }
}

// A server of chat completions that answers 404 to everything else, except GET /props (when
// `props` is not empty) and GET /v1/models (when `models` is not empty), and POST /flush_cache
// the first `flushes` times it comes (then 503). Keeps the bodies of the completion requests it
// received.
class ChatServer {
 public:
  ChatServer(std::string props, std::string models, int flushes = 0)
      : flushes_left_(flushes),
        server_([this, props = std::move(props), models = std::move(models)](Exchange& exchange) {
          const std::string& request = exchange.request();
          if (request.starts_with("POST /flush_cache ") && flushes_left_.fetch_sub(1) > 0) {
            exchange.send(bench::testing::http_response(200, "text/plain", ""));
          } else if (request.starts_with("POST /flush_cache ")) {
            exchange.send(bench::testing::http_response(
                503, "application/json", R"({"error":{"message":"requests are running"}})"));
          } else if (request.starts_with("POST /v1/chat/completions ")) {
            keep_body(request);
            exchange.send(bench::testing::http_head(200, "text/event-stream") +
                          bench::testing::sse_event(bench::testing::chat_chunk("hi", "length")) +
                          bench::testing::sse_event("[DONE]"));
          } else if (request.starts_with("GET /props ") && !props.empty()) {
            exchange.send(bench::testing::http_response(200, "application/json", props));
          } else if (request.starts_with("GET /v1/models ") && !models.empty()) {
            exchange.send(bench::testing::http_response(200, "application/json", models));
          } else {
            exchange.send(bench::testing::http_response(404, "application/json",
                                                        R"({"error":{"message":"Not Found"}})"));
          }
        }) {}

  std::string base_url() const { return server_.base_url(); }
  std::vector<json> bodies() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return bodies_;
  }

 private:
  void keep_body(const std::string& request) {
    const std::size_t blank = request.find("\r\n\r\n");
    const std::lock_guard<std::mutex> lock(mutex_);
    bodies_.push_back(json::parse(request.substr(blank + 4), nullptr, false));
  }

  std::atomic<int> flushes_left_;
  mutable std::mutex mutex_;
  std::vector<json> bodies_;
  HostileServer server_;  // last: stopped before the bodies it writes to go
};

ProcessResult run_bench(const ChatServer& server, std::vector<std::string> extra) {
  std::vector<std::string> args = {"--base-url",        server.base_url(),
                                   "--model",           "m",
                                   "--per-chunk-usage", "off",
                                   "--num-prompts",     "2",
                                   "--input-len",       "16",
                                   "--output-len",      "1",
                                   "--output-format",   "json",
                                   "--request-timeout", "20"};
  args.insert(args.end(), extra.begin(), extra.end());
  bench::testing::ProcessOptions limits;
  limits.timeout = std::chrono::milliseconds(60'000);
  return run_process(BENCH_BINARY, bench::testing::without_answer_check(args), limits);
}

TEST(CacheFlush, AServerWithNoWayToFlushIsSaidOnceAndTheRunGoesOn) {
  const ChatServer server("", "");
  const ProcessResult run = run_bench(server, {"--flush-cache", "--concurrency", "2,2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_of(run.err,
                     "bench: --flush-cache: the server offers no way to flush its "
                     "prefix cache (tried POST /flush_cache, /reset_prefix_cache; vLLM "
                     "serves the latter only with VLLM_SERVER_DEV_MODE=1)"),
            1u)
      << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["prefix_cache_flush"], "unavailable");
  for (const json& point : results["points"]) EXPECT_EQ(point["prefix_cache_flush"], "unavailable");
  for (const json& body : server.bodies()) EXPECT_FALSE(body.contains("cache_prompt")) << body;
}

void expect_cache_prompt_false_on_every_request(const ChatServer& server) {
  const ProcessResult run = run_bench(server, {"--flush-cache"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_of(run.err,
                     "bench: --flush-cache: llama.cpp: cache_prompt false on every "
                     "request"),
            1u)
      << run.err;
  EXPECT_EQ(json::parse(run.out)["prefix_cache_flush"], "cache_prompt_false");
  const std::vector<json> bodies = server.bodies();
  ASSERT_EQ(bodies.size(), 2u);
  for (const json& body : bodies) EXPECT_EQ(body["cache_prompt"], false) << body;
}

TEST(CacheFlush, ALlamaCppServerAnsweringPropsGetsCachePromptFalseInEveryBody) {
  // llama.cpp's GET /props leads with its default_generation_settings (tools/server/server.cpp).
  expect_cache_prompt_false_on_every_request(
      ChatServer(R"({"default_generation_settings":{"n_ctx":8192},"total_slots":1})", ""));
}

TEST(CacheFlush, ALlamaCppServerKnownByItsModelsListGetsCachePromptFalseInEveryBody) {
  std::ifstream in(std::string(BENCH_TEST_DATA_DIR) + "/server-api/llamacpp-models.response.json");
  std::ostringstream models;
  models << in.rdbuf();
  ASSERT_FALSE(models.str().empty());
  expect_cache_prompt_false_on_every_request(ChatServer("", models.str()));
}

TEST(CacheFlush, CachePromptIsSentOnlyWhenAsked) {
  const ChatServer server(R"({"default_generation_settings":{}})", "");
  const ProcessResult run = run_bench(server, {});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(json::parse(run.out)["prefix_cache_flush"].is_null());
  for (const json& body : server.bodies()) EXPECT_FALSE(body.contains("cache_prompt")) << body;
}

TEST(CacheFlush, AFlushThatFailsIsSaidOnceAndTheSweepGoesOn) {
  const ChatServer server("", "", 1);  // the first flush succeeds, the next two fail
  const ProcessResult run = run_bench(server, {"--flush-cache", "--concurrency", "1,1,1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_of(run.err, "bench: prefix cache flushed with POST /flush_cache"), 1u);
  EXPECT_EQ(count_of(run.err,
                     "bench: --flush-cache: POST /flush_cache answered HTTP 503: "
                     "requests are running; the run goes on with the cache as it is"),
            1u)
      << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["points"].size(), 3u);
  EXPECT_EQ(results["prefix_cache_flush"], "flush_cache");
}

}  // namespace
