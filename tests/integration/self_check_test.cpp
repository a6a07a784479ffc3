// The client checks its own instrument: starved of CPU it says so (in the report, on stderr and
// as "client_saturated" in the JSON), and a light run on an idle machine passes clean. These
// cases run alone (RUN_SERIAL): they measure the machine's timing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using nlohmann::json;

TEST(SelfCheck, WarnsWhenTheClientShareOneCpuWithAFirehose) {
  // Pinned to one CPU, bench and its embedded firehose server (no delays at all) take turns on
  // it: requests go out late and reads wait behind the server. The report must not pass as clean.
  const ProcessResult run = run_process(
      "/usr/bin/taskset", {"-c", "0", BENCH_BINARY, "--sim-profile", "firehose", "--concurrency",
                           "256", "--num-prompts", "1000", "--input-len", "32", "--output-len",
                           "256", "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_TRUE(results["client_saturated"].get<bool>()) << results["client"].dump();
  EXPECT_FALSE(results["client"]["warnings"].empty());
  EXPECT_NE(run.err.find("bench: warning: "), std::string::npos) << run.err;
}

TEST(SelfCheck, StaysQuietOnALightRun) {
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--concurrency", "4", "--num-prompts", "24", "--output-len",
                                 "16", "--sim-ttft-ms", "20", "--sim-tpot-ms", "5"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("warning"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("Self-check: the client kept up"), std::string::npos) << run.out;
}

}  // namespace
