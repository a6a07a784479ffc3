// Chaos suite: a server that dies mid-run, or was never there (issue 43, item 4). A closed loop
// whose connections are refused backs off per slot instead of failing tens of thousands of
// requests a second; an open loop's arrivals keep their schedule, each failing fast and counted;
// a server unreachable past --unreachable-timeout ends the run in one line, its results kept,
// exit 3; and no warning blames the prompt producer for what the dead server did.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/engine/fetch.hpp"
#include "hostile_server.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace dead_server_test {

using bench::testing::ClosedPort;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

// What a run against a dead server left: its process and its --output-file.
struct DeadRun {
  ProcessResult process;
  json results;
};

// bench at `base_url` with a known model (so nothing asks the server before the run) and
// `extra`, its results in a file of `dir`.
DeadRun run_bench(const std::string& base_url, std::vector<std::string> extra, const TempDir& dir,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(60'000)) {
  // --ready-timeout 0: a server dead from the start is the case here, not one to wait for
  // (startup_test.cpp has that).
  std::vector<std::string> args = {
      "--base-url",      base_url, "--model",      "m", "--per-chunk-usage", "off",
      "--input-len",     "16",     "--output-len", "8", "--output-file",     dir.file("r.json"),
      "--ready-timeout", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessOptions limits;
  limits.timeout = timeout;
  DeadRun run;
  run.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args), limits);
  run.results = json::parse(bench::testing::read_file(dir.file("r.json")), nullptr, false);
  return run;
}

// The counters every results object must reconcile.
void expect_reconciled(const json& results) {
  ASSERT_TRUE(results.is_object()) << "no results file";
  EXPECT_EQ(results["completed"].get<long>() + results["failed"].get<long>() +
                results["cancelled"].get<long>(),
            results["sent"].get<long>())
      << results.dump();
}

long refused(const json& results) {
  const json& errors = results["errors"];
  return errors.contains("connect_refused") ? errors["connect_refused"]["count"].get<long>() : 0;
}

// The simulator's completed requests, from its own /metrics (vLLM's request_success_total).
long sim_successes(const std::string& base_url) {
  bench::engine::EngineOptions options;
  options.connect_timeout_ms = 2'000;
  options.request_timeout_ms = 5'000;
  const bench::engine::FetchResult got =
      bench::engine::fetch(base_url + "/metrics", {}, "", options);
  std::istringstream lines(got.body);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("vllm:request_success_total")) continue;
    return std::stol(line.substr(line.rfind(' ') + 1));
  }
  return -1;
}

// Before the fix a refused connection freed its slot at once: 191,052 failed requests in 3.5 s
// at --concurrency 4, and a warning blaming the prompt producer for falling behind. Each slot now
// waits 50 ms, doubled per failure in a row up to 1 s: some 8 requests a slot in 3 s.
TEST(DeadServer, AClosedLoopBacksOffWhenConnectionsAreRefused) {
  const ClosedPort port;
  TempDir dir;
  const DeadRun run =
      run_bench(port.base_url(), {"--concurrency", "4", "--duration", "3s", "--quiet"}, dir);
  EXPECT_FALSE(run.process.timed_out);
  EXPECT_EQ(run.process.exit_code, bench::cli::kExitRequestsFailed) << run.process.err;
  expect_reconciled(run.results);
  EXPECT_EQ(run.results["completed"], 0);
  EXPECT_GE(refused(run.results), 4);
  EXPECT_EQ(refused(run.results), run.results["failed"].get<long>());
  // However slow the host, backoff only lowers the count; 200 is 6 times the expected.
  EXPECT_LE(run.results["sent"].get<long>(), 200) << run.results["errors"].dump();
  EXPECT_EQ(run.process.err.find("prompt producer"), std::string::npos) << run.process.err;
  EXPECT_EQ(run.results.dump().find("prompt producer"), std::string::npos);
}

// The reproduction: the server dies mid-run. Its completions so far are kept, the run
// ends once nothing could connect for --unreachable-timeout (long before --duration), in one line
// naming the URL, and exits 3.
TEST(DeadServer, AServerThatDiesMidRunEndsItAfterTheUnreachableLimit) {
  TempDir dir;
  auto sim = std::make_unique<ServeSimProcess>(
      BENCH_BINARY, std::vector<std::string>{"--ttft-ms", "5", "--tpot-ms", "2"}, dir);
  const std::string base_url = sim->base_url();
  ASSERT_FALSE(base_url.empty());
  std::atomic<bool> running{true};
  std::atomic<long> served_before_death{-1};
  std::thread killer([&] {
    while (running.load()) {
      const long served = sim_successes(base_url);
      if (served >= 8) {
        served_before_death = served;
        sim->stop();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const DeadRun run = run_bench(
      base_url,
      {"--concurrency", "4", "--duration", "120s", "--unreachable-timeout", "2", "--quiet"}, dir,
      std::chrono::milliseconds(90'000));
  running = false;
  killer.join();
  ASSERT_GE(served_before_death.load(), 8) << "the simulator was never stopped";
  EXPECT_FALSE(run.process.timed_out) << "the run went on against a dead server";
  EXPECT_EQ(run.process.exit_code, bench::cli::kExitRunFailed) << run.process.err;
  EXPECT_NE(run.process.err.find("server unreachable since t="), std::string::npos)
      << run.process.err;
  EXPECT_NE(run.process.err.find(base_url), std::string::npos) << run.process.err;
  expect_reconciled(run.results);
  EXPECT_GE(run.results["completed"].get<long>(), 8);
  EXPECT_GE(refused(run.results), 1) << run.results["errors"].dump();
  EXPECT_LE(refused(run.results), 200) << run.results["errors"].dump();
  ASSERT_TRUE(run.results.contains("stopped_early")) << run.results.dump();
  EXPECT_NE(run.results["stopped_early"].get<std::string>().find("unreachable"), std::string::npos);
  EXPECT_EQ(run.process.err.find("prompt producer"), std::string::npos) << run.process.err;
}

// An open loop's schedule is fixed: against a refused port every arrival is sent at its time,
// fails and is counted, none retried, none dropped (with the limit off, the run sends them all).
TEST(DeadServer, AnOpenLoopsArrivalsEachFailOnceAndAreCounted) {
  const ClosedPort port;
  TempDir dir;
  const DeadRun run = run_bench(
      port.base_url(),
      {"--request-rate", "100", "--num-prompts", "60", "--unreachable-timeout", "0", "--quiet"},
      dir);
  EXPECT_FALSE(run.process.timed_out);
  EXPECT_EQ(run.process.exit_code, bench::cli::kExitRequestsFailed) << run.process.err;
  expect_reconciled(run.results);
  EXPECT_EQ(run.results["sent"], 60);
  EXPECT_EQ(refused(run.results), 60) << run.results["errors"].dump();
  EXPECT_FALSE(run.results.contains("stopped_early"));
}

// The limit holds for an open loop too: arrivals due after it are not sent.
TEST(DeadServer, AnOpenLoopAgainstAnUnreachableServerEndsAtTheLimit) {
  const ClosedPort port;
  TempDir dir;
  const DeadRun run = run_bench(
      port.base_url(),
      {"--request-rate", "20", "--duration", "120s", "--unreachable-timeout", "1", "--quiet"}, dir,
      std::chrono::milliseconds(90'000));
  EXPECT_FALSE(run.process.timed_out);
  EXPECT_EQ(run.process.exit_code, bench::cli::kExitRunFailed) << run.process.err;
  EXPECT_NE(run.process.err.find("server unreachable since t="), std::string::npos)
      << run.process.err;
  EXPECT_NE(run.process.err.find(port.base_url()), std::string::npos) << run.process.err;
  expect_reconciled(run.results);
  EXPECT_GE(refused(run.results), 1);
}

}  // namespace dead_server_test
