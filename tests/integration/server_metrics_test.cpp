// --server-metrics over loopback: the embedded simulator's /metrics (vLLM's names) read before
// and after the run agrees with bench's own token counts; a scrape that fails (no server, an
// HTTP error, a body that is no exposition) is one line in the results and on stderr, and the
// run's figures and exit code are untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kPrompts = 8;

std::vector<std::string> run_args(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--num-prompts", std::to_string(kPrompts), "--concurrency", "4",
                                   "--input-len", "32", "--output-len", "6", "--ignore-eos",
                                   "--output-format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

TEST(ServerMetrics, TheSimulatorsCountersAgreeWithBenchsTokenCounts) {
  const ProcessResult run = run_process(BENCH_BINARY, run_args({"--server-metrics"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  const json& server = results.at("server_metrics");
  EXPECT_TRUE(server.at("error").is_null()) << server.dump();
  EXPECT_EQ(server.at("family"), "vllm");
  EXPECT_EQ(server.at("generation_tokens"), kPrompts * 6);
  EXPECT_EQ(server.at("generation_tokens"), results.at("total_output_tokens"));
  EXPECT_EQ(server.at("prompt_tokens"), results.at("total_input_tokens"));
  EXPECT_EQ(server.at("generation_tokens_difference"), 0);
  EXPECT_EQ(server.at("prompt_tokens_difference"), 0);
  EXPECT_EQ(server.at("requests_succeeded"), kPrompts);
  EXPECT_TRUE(server.at("preemptions").is_null());  // the simulator does not expose it
  EXPECT_EQ(run.err.find("server metrics"), std::string::npos) << run.err;
}

TEST(ServerMetrics, TheTextReportHasAServerSection) {
  const std::vector<std::string> args = {"--num-prompts", "4", "--concurrency", "2",
                                         "--output-len", "4", "--server-metrics"};
  const ProcessResult run = run_process(BENCH_BINARY, args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(" Server "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Generation tokens (server):       16 (bench: the same count of output "
                         "tokens)"),
            std::string::npos)
      << run.out;
}

TEST(ServerMetrics, NoServerAtTheUrlIsSaidOnceAndTheRunGoesOn) {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const ProcessResult run = run_process(
      BENCH_BINARY, run_args({"--server-metrics", "http://127.0.0.1:1/metrics"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results.at("completed"), kPrompts);
  const json& server = results.at("server_metrics");
  EXPECT_NE(server.at("error").get<std::string>().find("GET http://127.0.0.1:1/metrics failed"),
            std::string::npos)
      << server.dump();
  EXPECT_TRUE(server.at("generation_tokens").is_null());
  EXPECT_EQ(count_of(run.err, "bench: server metrics:"), 1u) << run.err;
}

TEST(ServerMetrics, AnHttpErrorOrABodyThatIsNoExpositionIsSaid) {
  TempDir dir;
  ServeSimProcess serve_sim(BENCH_BINARY, {}, dir);
  const std::string& base_url = serve_sim.base_url();
  ASSERT_FALSE(base_url.empty());
  const struct {
    std::string path;
    std::string error;
  } cases[] = {
      {"/no-such-route", "answered HTTP 404"},
      // JSON, not the text format: refused by the parser on its first line.
      {"/v1/models", "not a Prometheus text exposition (line 1: a sample line must start with a "
                     "valid metric name)"},
  };
  for (const auto& each : cases) {
    const ProcessResult run = run_process(
        BENCH_BINARY, run_args({"--base-url", base_url, "--server-metrics", base_url + each.path}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json results = json::parse(run.out);
    EXPECT_EQ(results.at("completed"), kPrompts);
    const std::string error = results.at("server_metrics").at("error").get<std::string>();
    EXPECT_NE(error.find(each.error), std::string::npos) << error;
    EXPECT_EQ(count_of(run.err, "bench: server metrics: "), 1u) << run.err;
  }
}

}  // namespace
