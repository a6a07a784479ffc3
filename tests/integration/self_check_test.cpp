// The client checks its own instrument: starved of CPU it says so (in the report, on stderr and
// as "client_saturated" in the JSON), a light run on an idle machine passes clean, and a client
// its host paused says the host made it late. These cases run alone (RUN_SERIAL): they measure
// the machine's timing.
#include <signal.h>

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>
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

// Paused 40 ms in every 200 (SIGSTOP, then SIGCONT), as a busy host or a hypervisor pauses a
// client: the loop's sleeps end late, the requests due meanwhile go out late, and the warning
// puts that on the host, not on waves of requests falling due together.
TEST(SelfCheck, SaysTheHostRanItLateWhenItsProcessIsPaused) {
  bench::testing::ProcessOptions options;
  bool paused = false;
  options.while_running = [&paused](int pid, std::chrono::milliseconds elapsed) {
    const bool pause_now = elapsed.count() >= 400 && elapsed.count() % 200 < 40;
    if (pause_now != paused) ::kill(pid, pause_now ? SIGSTOP : SIGCONT);
    paused = pause_now;
  };
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--request-rate", "50", "--constant-rate", "--num-prompts", "150", "--input-len", "16",
       "--output-len", "4", "--sim-ttft-ms", "2", "--sim-tpot-ms", "1", "--output-format", "json"},
      options);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_GT(results["p99_client_lag_ms"].get<double>(), 1.0);
  const json& late_wakes = results["client"]["late_wakes"];
  EXPECT_GT(late_wakes["over_1ms"].get<int>(), 0) << late_wakes;
  EXPECT_LE(late_wakes["over_1ms"].get<int>(), late_wakes["sleeps"].get<int>()) << late_wakes;
  EXPECT_GT(late_wakes["latest_ms"].get<double>(), 10.0) << late_wakes;  // a 40 ms pause
  const std::string warnings = results["client"]["warnings"].dump();
  EXPECT_NE(warnings.find("because its host ran it late"), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find("in waves"), std::string::npos) << warnings;
}

}  // namespace
