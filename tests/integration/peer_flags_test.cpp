// Flags of vLLM's and SGLang's command lines that a run takes with their meaning (issue 45),
// through the real binary against its embedded server.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace peer_flags_test {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;

ProcessResult run_bench(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--num-prompts",
                                   "4",
                                   "--concurrency",
                                   "2",
                                   "--input-len",
                                   "16",
                                   "--output-len",
                                   "4",
                                   "--sim-ttft-ms",
                                   "1",
                                   "--no-answer-check",
                                   "--sim-tpot-ms",
                                   "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(BENCH_BINARY, args);
}

TEST(PeerFlags, TrustRemoteCodeRunsAndSaysItDoesNothing) {
  const ProcessResult run = run_bench({"--trust-remote-code"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bench: note: --trust-remote-code does nothing here"), std::string::npos)
      << run.err;
}

TEST(PeerFlags, NumWarmupsSendsThatManyUnmeasuredRequests) {
  TempDir dir;
  const ProcessResult run = run_bench({"--num-warmups", "3", "--output-file", dir.file("r.json")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json results =
      nlohmann::json::parse(bench::testing::read_file(dir.file("r.json")), nullptr, false);
  ASSERT_TRUE(results.is_object());
  EXPECT_EQ(results["warmup_requests"], 3);
  EXPECT_EQ(results["sent"], 4);
}

}  // namespace peer_flags_test
