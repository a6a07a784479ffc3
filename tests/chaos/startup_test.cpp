// Chaos: before the measured phase (issue 43, items 1 and 6). A server that accepts and stays
// silent is hung: bench says what it waits for, gives up after --startup-timeout, and ends the run
// in one line naming the URL (exit 3); before, it waited --request-timeout (600 s) for each
// start-up request in turn, over an hour with --model. A server that is not ready yet (refusing,
// 503 while it loads) is waited for up to --ready-timeout, saying so, and then measured. A server
// that refuses every answer-check request ends the run before anything is measured; one that
// ignores "stream": true is named so; a base URL's query stays after every route, its key unseen.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace chaos_startup {

using bench::testing::ClosedPort;
using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr const char* kModels = R"({"object":"list","data":[{"id":"m","object":"model"}]})";

// Long enough to tell "gave up at its limit" from "waited out the request timeout" (600 s), short
// enough for CI: a run that hangs is killed here and fails its test.
ProcessOptions within(std::chrono::seconds seconds) {
  ProcessOptions options;
  options.timeout = seconds;
  return options;
}

// Accepts every connection, reads its request, and never answers.
void stay_silent(Exchange& exchange) { exchange.pause(std::chrono::minutes(10)); }

// A streamed chat answer of one chunk, as vLLM shapes it.
std::string chat_stream() {
  return bench::testing::http_head(200, "text/event-stream") +
         bench::testing::sse_event(bench::testing::chat_chunk("hi", "length")) +
         bench::testing::sse_event("[DONE]");
}

// The request line's target ("/v1/models?x=1") of an exchange.
std::string target_of(const std::string& request) {
  const std::size_t start = request.find(' ') + 1;
  return request.substr(start, request.find(' ', start) - start);
}

TEST(ChaosStartup, AHungServerEndsTheRunInOneLineNamingItsUrl) {
  const HostileServer server(stay_silent);
  TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--base-url", server.base_url(), "--num-prompts", "5", "--concurrency", "1",
                   "--startup-timeout", "3", "--output-file", dir.file("results.json")},
                  within(std::chrono::seconds(60)));
  EXPECT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  // Said while it waited (after 2 s), then given up on at the limit, naming what it asked.
  EXPECT_NE(
      run.err.find("waiting for GET " + server.base_url() + "/v1/models: no answer after 2 s"),
      std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("bench: error: GET " + server.base_url() +
                         "/v1/models: no answer for 3 s (--startup-timeout)"),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(ChaosStartup, WithAKnownModelAHungServerEndsTheRunAtItsFirstSilentRequest) {
  // --model skips model discovery: the identity probes, the usage probe and the answer check each
  // waited out the whole request timeout before.
  const HostileServer server(stay_silent);
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--base-url", server.base_url(), "--model", "m", "--num-prompts", "5",
                   "--startup-timeout", "2", "--request-timeout", "20"},
                  within(std::chrono::seconds(15)));
  EXPECT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  EXPECT_NE(run.err.find("no answer for 2 s (--startup-timeout): the server accepted the "
                         "connection and stayed silent"),
            std::string::npos)
      << run.err;
}

TEST(ChaosStartup, ByDefaultAHungServerIsGivenUpOnAfterTenSeconds) {
  const HostileServer server(stay_silent);
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--num-prompts", "5"},
                  within(std::chrono::seconds(90)));
  EXPECT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  EXPECT_NE(run.err.find("no answer for 10 s (--startup-timeout)"), std::string::npos) << run.err;
}

// A server loading its model: 503 "Loading model" (llama.cpp's answer meanwhile) to its first
// `loading` requests, then a chat server of one model.
class LoadingServer {
 public:
  explicit LoadingServer(int loading)
      : loading_left_(loading), server_([this](Exchange& exchange) { answer(exchange); }) {}
  std::string base_url() const { return server_.base_url(); }

 private:
  void answer(Exchange& exchange) {
    const std::string& request = exchange.request();
    if (loading_left_.fetch_sub(1) > 0) {
      exchange.send(bench::testing::http_response(
          503, "application/json",
          R"({"error":{"code":503,"message":"Loading model","type":"unavailable_error"}})"));
    } else if (request.starts_with("GET /v1/models")) {
      exchange.send(bench::testing::http_response(200, "application/json", kModels));
    } else if (request.starts_with("POST /v1/chat/completions")) {
      exchange.send(chat_stream());
    } else {
      exchange.send(bench::testing::http_response(404, "application/json", "{}"));
    }
  }

  std::atomic<int> loading_left_;
  HostileServer server_;
};

TEST(ChaosStartup, AServerStillLoadingIsWaitedForThenMeasured) {
  const LoadingServer server(3);
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--base-url", server.base_url(), "--num-prompts", "4", "--concurrency", "2", "--input-len",
       "8", "--output-len", "1", "--no-answer-check", "--output-format", "json"},
      within(std::chrono::seconds(60)));
  EXPECT_EQ(run.exit_code, bench::cli::kExitOk) << run.err;
  EXPECT_NE(run.err.find("bench: " + server.base_url() +
                         " is not ready (HTTP 503: Loading model): waiting up to 600 s for it "
                         "(--ready-timeout"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find(" is ready, after "), std::string::npos) << run.err;
  const json results = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << run.out;
  EXPECT_EQ(results["completed"], 4) << run.out;
}

TEST(ChaosStartup, AServerNeverReadyEndsTheRunAfterTheReadyTimeout) {
  const ClosedPort port;
  const ProcessResult run = run_process(
      BENCH_BINARY, {"--base-url", port.base_url(), "--num-prompts", "4", "--ready-timeout", "2"},
      within(std::chrono::seconds(60)));
  EXPECT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  EXPECT_NE(run.err.find(port.base_url() + " is not ready (connection refused): waiting up to 2 s"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("bench: error: " + port.base_url() +
                         " was still not ready after 2 s (--ready-timeout): connection refused"),
            std::string::npos)
      << run.err;
}

// Answers the model list and refuses every completion with HTTP 500; counts the completions.
class RefusingServer {
 public:
  RefusingServer()
      : server_([this](Exchange& exchange) {
          if (exchange.request().starts_with("GET /v1/models")) {
            exchange.send(bench::testing::http_response(200, "application/json", kModels));
            return;
          }
          if (exchange.request().starts_with("POST ")) ++posts_;
          exchange.send(bench::testing::http_response(
              500, "application/json", R"({"error":{"message":"CUDA error: device lost"}})"));
        }) {}
  std::string base_url() const { return server_.base_url(); }
  int posts() const { return posts_.load(); }

 private:
  std::atomic<int> posts_{0};
  HostileServer server_;
};

TEST(ChaosStartup, AServerRefusingEveryAnswerCheckRequestEndsTheRunBeforeMeasuring) {
  const RefusingServer server;
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--base-url", server.base_url(), "--per-chunk-usage", "off", "--num-prompts", "50"},
      within(std::chrono::seconds(60)));
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  EXPECT_NE(run.err.find("every answer-check request to " + server.base_url() +
                         "/v1/chat/completions failed before any answer (HTTP 500: CUDA error: "
                         "device lost"),
            std::string::npos)
      << run.err;
  EXPECT_LT(server.posts(), 50) << "the measured requests were sent";
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST(ChaosStartup, WithoutTheAnswerCheckARefusingServerIsMeasuredAndItsFailuresCounted) {
  const RefusingServer server;
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--base-url", server.base_url(), "--per-chunk-usage", "off", "--num-prompts",
                   "10", "--no-answer-check", "--output-format", "json"},
                  within(std::chrono::seconds(60)));
  EXPECT_EQ(run.exit_code, bench::cli::kExitRequestsFailed) << run.err;
  const json results = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << run.out;
  EXPECT_EQ(results["failed"], 10);
}

TEST(ChaosStartup, AServerIgnoringStreamIsNamedSo) {
  // vLLM's whole chat.completion, as a server that ignores "stream": true sends it.
  const HostileServer server([](Exchange& exchange) {
    if (exchange.request().starts_with("GET /v1/models")) {
      exchange.send(bench::testing::http_response(200, "application/json", kModels));
      return;
    }
    exchange.send(bench::testing::http_response(
        200, "application/json",
        R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",)"
        R"("choices":[{"index":0,"message":{"role":"assistant","content":"hi"},)"
        R"("finish_reason":"length"}],)"
        R"("usage":{"prompt_tokens":8,"completion_tokens":1,"total_tokens":9}})"));
  });
  const ProcessResult run = run_process(BENCH_BINARY,
                                        {"--base-url", server.base_url(), "--per-chunk-usage",
                                         "off", "--num-prompts", "3", "--no-answer-check"},
                                        within(std::chrono::seconds(60)));
  EXPECT_EQ(run.exit_code, bench::cli::kExitRequestsFailed) << run.err;
  EXPECT_NE(run.out.find("malformed_sse: 3  (e.g. the server ignored \"stream\": true and "
                         "answered one whole JSON completion"),
            std::string::npos)
      << run.out;
}

// Records each request's target; answers the model list, and refuses each completion with a
// message that echoes the key it was sent, as a careless server might.
class EchoingServer {
 public:
  explicit EchoingServer(std::string key)
      : key_(std::move(key)), server_([this](Exchange& exchange) { answer(exchange); }) {}
  std::string base_url() const { return server_.base_url(); }
  std::vector<std::string> targets() const {
    const std::lock_guard lock(mutex_);
    return targets_;
  }

 private:
  void answer(Exchange& exchange) {
    {
      const std::lock_guard lock(mutex_);
      targets_.push_back(target_of(exchange.request()));
    }
    if (exchange.request().starts_with("GET /v1/models")) {
      exchange.send(bench::testing::http_response(200, "application/json", kModels));
      return;
    }
    exchange.send(bench::testing::http_response(
        400, "application/json",
        R"({"error":{"message":"unknown api_key )" + key_ + R"( for this route"}})"));
  }

  std::string key_;
  mutable std::mutex mutex_;
  std::vector<std::string> targets_;
  HostileServer server_;
};

TEST(ChaosStartup, ABaseUrlsQueryStaysAfterEveryRouteAndItsKeyIsNeverShown) {
  const std::string key = "sk-chaos-0123456789abcdef";
  const EchoingServer server(key);
  TempDir dir;
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--base-url", server.base_url() + "/v1?api_key=" + key, "--num-prompts", "3",
                   "--per-chunk-usage", "off", "--no-answer-check", "--output-file",
                   dir.file("results.json"), "--save-requests", dir.file("requests.jsonl")},
                  within(std::chrono::seconds(60)));
  EXPECT_EQ(run.exit_code, bench::cli::kExitRequestsFailed) << run.err;
  const std::vector<std::string> targets = server.targets();
  ASSERT_FALSE(targets.empty());
  // Before: "/v1?api_key=KEY/v1/models", the route after the query.
  for (const std::string& target : targets) {
    EXPECT_EQ(target.find('?'), target.find("?api_key=" + key)) << target;
    EXPECT_TRUE(target.ends_with("?api_key=" + key)) << target;
  }
  EXPECT_NE(std::find(targets.begin(), targets.end(), "/v1/chat/completions?api_key=" + key),
            targets.end());
  for (const std::string& text :
       {run.out, run.err, bench::testing::read_file(dir.file("results.json")),
        bench::testing::read_file(dir.file("requests.jsonl"))}) {
    EXPECT_EQ(text.find(key), std::string::npos) << text;
    EXPECT_EQ(text.find(key.substr(0, 12)), std::string::npos) << text;
  }
  // The report names the server with its key hidden, and the server's echo is hidden too.
  EXPECT_NE(run.out.find(server.base_url() + "?api_key=[REDACTED]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("unknown api_key [REDACTED] for this route"), std::string::npos)
      << run.out;
}

}  // namespace chaos_startup
