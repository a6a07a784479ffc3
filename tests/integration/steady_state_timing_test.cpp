// The steady-state window's throughput against the rate the simulator models: a check of the
// wall clock (a busy host serves fewer tokens a second), so it runs with the timing checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

TEST(SteadyStateTiming, TheWindowsOutputThroughputIsTheServersModelledRate) {
  bench::sim::SimServer server(bench::testing::quick_sim(5, 2));
  const bench::testing::ProcessResult run = bench::testing::run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--quiet", "--concurrency", "8",
                     "--num-prompts", "200", "--output-len", "20", "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json results = nlohmann::json::parse(run.out);
  const nlohmann::json& steady = results["steady_state"];
  ASSERT_TRUE(steady.is_object()) << results["timeline"].dump();
  // Inside the window the server held 8 streams of 1 token / 2 ms: about 4,000 output tok/s.
  EXPECT_GT(steady["output_throughput"].get<double>(), 4000 * 0.6);
  EXPECT_LT(steady["output_throughput"].get<double>(), 4000 * 1.1);
}

}  // namespace
