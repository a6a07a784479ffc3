// A Kubernetes Indexed Job (deploy/kubernetes/) gives each pod its index in the real process
// environment as JOB_COMPLETION_INDEX; `bench --shards N` takes its shard from there through
// parse_cli, as the pod's bench does.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/cli/options.hpp"

namespace {

bench::cli::ParseResult parse_in_pod(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return bench::cli::parse_cli(static_cast<int>(argv.size()), argv.data());
}

TEST(IndexedJobEnvironment, ShardsTakesTheShardIndexFromJobCompletionIndex) {
  unsetenv("SLURM_PROCID");
  unsetenv("SLURM_NTASKS");
  setenv("JOB_COMPLETION_INDEX", "2", 1);
  const auto result =
      parse_in_pod({"--shards", "4", "--seed", "7", "--base-url", "http://bench-target:8000"});
  const auto refused =
      parse_in_pod({"--shards", "2", "--seed", "7", "--base-url", "http://bench-target:8000"});
  unsetenv("JOB_COMPLETION_INDEX");
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.shard_index, 2);
  EXPECT_EQ(result.run.shard_count, 4);
  // An index the count cannot hold (a Job's completions and --shards out of step) is refused.
  ASSERT_TRUE(refused.exit_code);
  EXPECT_EQ(*refused.exit_code, 2);
  EXPECT_NE(refused.message.find("JOB_COMPLETION_INDEX"), std::string::npos) << refused.message;
}

}  // namespace
