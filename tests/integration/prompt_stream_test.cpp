// Prompts as the server sees them (issue 13): the same seed sends the same prompts whatever
// --client-threads is, checked on the simulator's side through its truth log's prompt_hash.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kStreamRequests = 40;

// The prompt hashes a fresh simulator logged for one run of bench, sorted (two client threads
// interleave their requests, so only the multiset of prompts can be compared).
std::vector<std::string> prompts_sent(const std::vector<std::string>& extra) {
  const TempDir dir;  // a server of its own: it announces its port in a file here
  const std::string trace = dir.file("trace.jsonl");
  ServeSimProcess server(BENCH_BINARY, {"--profile", "firehose", "--trace", trace}, dir);
  EXPECT_FALSE(server.base_url().empty());
  std::vector<std::string> args = {"--base-url",
                                   server.base_url(),
                                   "--endpoint",
                                   "completions",
                                   "--num-prompts",
                                   std::to_string(kStreamRequests),
                                   "--concurrency",
                                   "4",
                                   "--input-len",
                                   "24",
                                   "--output-len",
                                   "2",
                                   "--warmup-requests",
                                   "0",
                                   "--per-chunk-usage",
                                   "off",
                                   "--output-format",
                                   "json",
                                   "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult run = run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  server.stop();  // flushes the truth log
  std::vector<std::string> hashes;
  for (const json& line : bench::testing::read_jsonl(trace)) {
    if (line.value("endpoint", "") != "completions") continue;  // not the model lookup
    EXPECT_TRUE(line.contains("prompt_hash")) << line.dump();
    hashes.push_back(line.value("prompt_hash", ""));
  }
  std::sort(hashes.begin(), hashes.end());
  return hashes;
}

TEST(PromptStream, TheSameSeedSendsTheSamePromptsWithOneOrTwoClientThreads) {
  const std::vector<std::string> one = prompts_sent({"--seed", "11", "--client-threads", "1"});
  const std::vector<std::string> two = prompts_sent({"--seed", "11", "--client-threads", "2"});
  ASSERT_EQ(one.size(), static_cast<std::size_t>(kStreamRequests));
  EXPECT_EQ(std::set<std::string>(one.begin(), one.end()).size(), one.size());  // all fresh
  EXPECT_EQ(one, two);
  // And the hash tells prompts apart: another seed sends other prompts.
  const std::vector<std::string> other = prompts_sent({"--seed", "12", "--client-threads", "1"});
  EXPECT_NE(one, other);
}

}  // namespace
