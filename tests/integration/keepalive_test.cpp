// Servers close idle keep-alive connections (vLLM's uvicorn after 5 s). A request that finds its
// pooled connection closed must be sent again on a new one, never counted as failed.
#include <gtest/gtest.h>

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
  const auto result = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--output-format", "json", "--quiet",
                     "--request-rate", "8", "--constant-rate", "--num-prompts", "6",
                     "--concurrency", "2", "--input-len", "8", "--output-len", "4",
                     "--warmup-requests", "0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json results = json::parse(result.out);
  EXPECT_EQ(results["completed"], 6);
  EXPECT_EQ(results["failed"], 0);
  // The connections opened before the run were closed by the server before they were used,
  // and so was each request's connection before the next request came.
  EXPECT_GE(results["connections_opened"].get<int>(), 5);
}

}  // namespace
