// Servers close idle keep-alive connections (vLLM's uvicorn after 5 s). A request that finds its
// pooled connection closed must be sent again on a new one, never counted as failed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::run_process;
using nlohmann::json;

TEST(KeepAlive, ConnectionsTheServerClosedWhileIdleAreReplacedWithoutAFailedRequest) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  sim.keepalive_timeout_s = 0.05;  // every gap between requests below outlasts it
  bench::sim::SimServer server(sim);
  const auto result =
      run_process(BENCH_BINARY,
                  {"--base-url", server.base_url(), "--output-format", "json", "--quiet",
                   "--request-rate", "8", "--constant-rate", "--num-prompts", "6", "--concurrency",
                   "2", "--input-len", "8", "--output-len", "4", "--warmup-requests", "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(result.out);
  EXPECT_EQ(results["completed"], 6);
  EXPECT_EQ(results["failed"], 0);
  // The connections opened before the run were closed by the server before they were used,
  // and so was each request's connection before the next request came.
  EXPECT_GE(results["connections_opened"].get<int>(), 5);
}

}  // namespace

namespace {

// llama.cpp's llama-server says `Keep-Alive: timeout=5, max=100` and closes every streamed
// connection 8-90 us after the last chunk: a request written into that window is lost with the
// connection ("Failed sending data to the peer"). bench (before it resent such requests and
// stopped reusing connections to such a server) lost 22-66 of 512 requests to the simulator
// closing this way, at every delay below.
TEST(KeepAlive, AServerThatClosesAfterEveryStreamLosesNoRequestWhateverItsCloseDelay) {
  for (const std::int64_t delay_us : {0, 20, 50, 100, 1000}) {
    bench::sim::SimOptions sim;
    sim.ttft_ms = 0;
    sim.tpot_ms = 0;
    sim.close_after_stream = true;
    sim.close_delay_us = delay_us;
    bench::sim::SimServer server(sim);
    const auto result = run_process(
        BENCH_BINARY, {"--base-url", server.base_url(), "--output-format", "json", "--quiet",
                       "--no-answer-check", "--concurrency", "8", "--num-prompts", "600",
                       "--input-len", "16", "--output-len", "4", "--warmup-requests", "0"});
    ASSERT_EQ(result.exit_code, 0) << "close delay " << delay_us << " us: " << result.err;
    const json results = json::parse(result.out);
    EXPECT_EQ(results["completed"], 600) << "close delay " << delay_us << " us";
    EXPECT_EQ(results["failed"], 0) << "close delay " << delay_us << " us";
    // Reuse stopped once the server had shown its habit, and the run says so.
    const json& reuse = results["client"]["connection_reuse"];
    EXPECT_EQ(reuse["stopped"], true) << "close delay " << delay_us << " us";
    EXPECT_GE(reuse["server_closes_after_response"].get<int>(), 3);
    EXPECT_GE(results["connections_opened"].get<int>(), 590);
  }
}

// The lines of `text` that begin with `label`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& label) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    if (line.rfind(label, 0) == 0) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// What the run did about such a server is said once in the text report: reuse stopped (one line,
// the server's habit named), and the resends, when there were any, with their count as the
// results' connection_retries.
TEST(KeepAlive, TheTextReportSaysOnceThatReuseStoppedAndCountsTheRetries) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 0;
  sim.tpot_ms = 0;
  sim.close_after_stream = true;
  sim.close_delay_us = 50;
  bench::sim::SimServer server(sim);
  bench::testing::TempDir dir;
  const auto result = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--output-file", dir.file("r.json"),
                     "--no-answer-check", "--concurrency", "8", "--num-prompts", "300",
                     "--input-len", "16", "--output-len", "4", "--warmup-requests", "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")));
  EXPECT_EQ(results["failed"], 0);
  const std::vector<std::string> reuse = lines_starting(result.out, "Connection reuse:");
  ASSERT_EQ(reuse.size(), 1u) << result.out;
  EXPECT_NE(reuse[0].find("stopped: the server closed "), std::string::npos) << reuse[0];
  EXPECT_NE(reuse[0].find("(as llama.cpp does), so each later request opened its own"),
            std::string::npos)
      << reuse[0];
  const std::vector<std::string> retries = lines_starting(result.out, "Connection retries:");
  const auto counted = results["connection_retries"].get<std::int64_t>();
  ASSERT_EQ(retries.size(), counted > 0 ? 1u : 0u) << result.out;
  if (counted > 0) {
    EXPECT_NE(retries[0].find(" " + std::to_string(counted) + " (requests sent again"),
              std::string::npos)
        << retries[0];
  }
}

TEST(KeepAlive, AServerThatKeepsItsConnectionsIsStillReusedAndNeverRetried) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 0;
  sim.tpot_ms = 0;
  bench::sim::SimServer server(sim);
  const auto result = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--output-format", "json", "--quiet",
                     "--no-answer-check", "--concurrency", "8", "--num-prompts", "400",
                     "--input-len", "16", "--output-len", "4", "--warmup-requests", "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(result.out);
  EXPECT_EQ(results["failed"], 0);
  EXPECT_EQ(results["connections_opened"], 0);  // the pre-opened connections carried them all
  EXPECT_EQ(results["connection_retries"], 0);
  EXPECT_EQ(results["client"]["connection_reuse"]["stopped"], false);
}

}  // namespace
