// --client-threads auto, the default: the event loops the real binary chooses from the load it
// plans and the cores its affinity mask (taskset) allows, said on stderr and in the results.
#include <sched.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

// Two CPUs this test may pin bench to ("0,1" on a 2-core machine); empty when it has one.
std::string two_usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return "";
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE && cpus.size() < 2; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus.size() == 2 ? std::to_string(cpus[0]) + "," + std::to_string(cpus[1]) : "";
}

std::string first_of(const std::string& cpus) { return cpus.substr(0, cpus.find(',')); }

// 1,024 streams in flight at the assumed chunk gap (20 ms) plan about 51,000 chunks a second,
// a core of the loops' CPU: more than one loop wants. Only 48 requests are sent, on connections
// opened as they go, so the run itself stays short.
std::vector<std::string> heavy_closed_loop(const std::string& cpus, const std::string& base_url,
                                           std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"-c",         cpus,
                                   BENCH_BINARY, "--concurrency",
                                   "1024",       "--preconnect",
                                   "0",          "--num-prompts",
                                   "48",         "--input-len",
                                   "8",          "--output-len",
                                   "16",         "--output-format",
                                   "json"};
  if (!base_url.empty()) args.insert(args.end(), {"--base-url", base_url});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

json client_of(const ProcessResult& run) {
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out)["client"];
}

TEST(ClientThreadsAuto, ChoosesLoopsByTheCoresItsMaskAllows) {
  const std::string cpus = two_usable_cpus();
  if (cpus.empty()) GTEST_SKIP() << "needs two usable CPUs";
  TempDir dir;
  ServeSimProcess server(BENCH_BINARY, {"--ttft-ms", "1", "--tpot-ms", "1"}, dir);
  ASSERT_FALSE(server.base_url().empty());

  const ProcessResult two =
      run_process("/usr/bin/taskset", heavy_closed_loop(cpus, server.base_url()));
  const json both = client_of(two);
  EXPECT_EQ(both["threads"], 2) << both.dump();
  EXPECT_EQ(both["threads_auto"], true);
  const std::string reason = both["threads_reason"].get<std::string>();
  EXPECT_EQ(reason.rfind("auto: 2 event loops, the expected load needs 1.", 0), 0u) << reason;
  EXPECT_NE(reason.find("(2 usable cores)"), std::string::npos) << reason;
  // serve-sim's pace is not the plan's to know: the gap is assumed, and said to be.
  EXPECT_NE(reason.find(", at an assumed 20 ms between a stream's chunks"), std::string::npos)
      << reason;
  EXPECT_NE(two.err.find("bench: client: " + reason + "\n"), std::string::npos) << two.err;

  const ProcessResult one =
      run_process("/usr/bin/taskset", heavy_closed_loop(first_of(cpus), server.base_url()));
  const json alone = client_of(one);
  EXPECT_EQ(alone["threads"], 1) << alone.dump();
  EXPECT_NE(alone["threads_reason"].get<std::string>().find("(1 usable core)"), std::string::npos)
      << alone.dump();
}

TEST(ClientThreadsAuto, LeavesACoreToTheEmbeddedServer) {
  const std::string cpus = two_usable_cpus();
  if (cpus.empty()) GTEST_SKIP() << "needs two usable CPUs";
  // The same load, a token every millisecond, against bench's own server: one core is its.
  const ProcessResult run =
      run_process("/usr/bin/taskset",
                  heavy_closed_loop(cpus, "", {"--sim-ttft-ms", "1", "--sim-tpot-ms", "1"}));
  const json client = client_of(run);
  EXPECT_EQ(client["threads"], 1) << client.dump();
  EXPECT_NE(client["threads_reason"].get<std::string>().find(
                "(2 usable cores, 1 for the embedded server)"),
            std::string::npos)
      << client.dump();
}

TEST(ClientThreadsAuto, ALightRunKeepsOneLoopAndAGivenNumberWins) {
  const ProcessResult light =
      run_process(BENCH_BINARY, {"--concurrency", "4", "--num-prompts", "8", "--input-len", "8",
                                 "--output-len", "8", "--sim-ttft-ms", "5", "--sim-tpot-ms", "2"});
  ASSERT_EQ(light.exit_code, 0) << light.err;
  EXPECT_NE(light.err.find("bench: client: auto: 1 event loop, the expected load needs 0."),
            std::string::npos)
      << light.err;
  EXPECT_NE(light.out.find("Event loops:"), std::string::npos) << light.out;

  const std::string cpus = two_usable_cpus();
  if (cpus.empty()) return;
  const ProcessResult given =
      run_process("/usr/bin/taskset", {"-c", first_of(cpus), BENCH_BINARY, "--client-threads", "2",
                                       "--concurrency", "4", "--num-prompts", "8", "--input-len",
                                       "8", "--output-len", "8", "--output-format", "json"});
  const json client = client_of(given);
  EXPECT_EQ(client["threads"], 2) << client.dump();
  EXPECT_EQ(client["threads_auto"], false);
  EXPECT_EQ(client["threads_reason"], "--client-threads 2: 2 event loops");
}

}  // namespace
