// The embedded server's prefix cache seen through bench. Every request's prompt is fresh: a
// sweep's points, warm-up and measured requests, and the passes of a --duration run never
// resend one, so the server's own truth log shows no cached prompt token. With --reuse-prompts
// the second point resends the first point's prompts on purpose: the per-request JSONL says how
// many prompt tokens were cached, and their TTFT drops. With the cache off the server discloses
// nothing, and bench says unknown, not 0.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// Measured requests of a `--concurrency 4,4` sweep of 4 prompts of 512 words on the tiny
// engine made slow to prefill (0.2 ms per prompt token: ~100 ms per uncached prompt).
std::vector<json> sweep_twice(const std::string& cache, const TempDir& dir,
                              std::vector<std::string> extra = {"--reuse-prompts"}) {
  const std::string requests_path = dir.file("requests-" + cache + ".jsonl");
  std::vector<std::string> args = {"--sim-profile",
                                   "tiny",
                                   "--sim-prefix-cache",
                                   cache,
                                   "--sim-prefill-us-per-token",
                                   "200",
                                   "--concurrency",
                                   "4,4",
                                   "--num-prompts",
                                   "4",
                                   "--input-len",
                                   "512",
                                   "--output-len",
                                   "4",
                                   "--ignore-eos",
                                   "--save-requests",
                                   requests_path,
                                   "--output-format",
                                   "json",
                                   "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult run = run_process(BENCH_BINARY, args);
  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<json> measured;
  for (json& line : bench::testing::read_jsonl(requests_path)) {
    if (!line["warmup"].get<bool>()) measured.push_back(std::move(line));
  }
  return measured;
}

double mean_ttft_ms(const std::vector<json>& lines, std::size_t from, std::size_t to) {
  double sum = 0;
  for (std::size_t i = from; i < to; ++i) sum += lines[i]["ttft_ms"].get<double>();
  return sum / static_cast<double>(to - from);
}

TEST(SimPrefixCache, ReusedPromptsOfASweepAreServedFromTheCacheAndSaySo) {
  TempDir dir;
  const std::vector<json> lines = sweep_twice("on", dir);
  ASSERT_EQ(lines.size(), 8u);  // written as requests end: the first point's four come first
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(lines[i]["status"], "ok");
    EXPECT_EQ(lines[i]["prompt_tokens"], 512);
    EXPECT_EQ(lines[i]["cached_prompt_tokens"], 0) << lines[i];  // fresh: disclosed as 0
    EXPECT_EQ(lines[i]["cached_prompt_token_source"], "usage_details");
  }
  for (std::size_t i = 4; i < 8; ++i) {
    EXPECT_EQ(lines[i]["status"], "ok");
    // 31 whole 16-token blocks; the last block holds the last prompt token, always computed.
    EXPECT_EQ(lines[i]["cached_prompt_tokens"], 496) << lines[i];
    EXPECT_EQ(lines[i]["computed_prompt_tokens"], 16);
    EXPECT_EQ(lines[i]["computed_prompt_tokens"].get<std::int64_t>() +
                  lines[i]["cached_prompt_tokens"].get<std::int64_t>(),
              lines[i]["prompt_tokens"].get<std::int64_t>());
  }
  // ~100 ms of prefill for 4 x 512 tokens at once, against ~3 ms for 4 x 16.
  EXPECT_LT(mean_ttft_ms(lines, 4, 8), mean_ttft_ms(lines, 0, 4) / 2);
}

// The server's truth log: one line per request it served, with the prompt tokens its cache held.
std::vector<json> served(const std::vector<std::string>& load, const TempDir& dir) {
  const std::string trace_path = dir.file("trace.jsonl");
  std::vector<std::string> args = {"--sim-profile", "tiny",     "--sim-prefix-cache", "on",
                                   "--sim-trace",   trace_path, "--input-len",        "64",
                                   "--output-len",  "2",        "--ignore-eos",       "--quiet"};
  args.insert(args.end(), load.begin(), load.end());
  const ProcessResult run = run_process(BENCH_BINARY, args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return bench::testing::read_jsonl(trace_path);
}

TEST(SimPrefixCache, NoPointOrWarmupOfASweepResendsAPrompt) {
  const TempDir dir;
  const std::vector<json> trace =
      served({"--concurrency", "2,4,8", "--num-prompts", "16", "--warmup-requests", "4"}, dir);
  // 3 points x (4 warm-up + 16 measured) of 64 words, and the per-chunk usage probe.
  std::size_t workload_requests = 0;
  for (const json& request : trace) {
    EXPECT_EQ(request["cached_prompt_tokens"], 0) << request;
    if (request["prompt_tokens"] == 64) ++workload_requests;
  }
  EXPECT_EQ(workload_requests, 3u * 20u);
}

TEST(SimPrefixCache, ADurationRunWithWarmupNeverResendsAPrompt) {
  const TempDir dir;
  // Before prompts were fresh, a timed run cycled through --num-prompts of them and warmed up
  // on the very prompts it then measured. (--num-prompts with --duration now caps the run,
  // whichever comes first, so the run is timed alone.)
  const std::vector<json> trace =
      served({"--concurrency", "4", "--duration", "1s", "--warmup-duration", "300ms"}, dir);
  ASSERT_GT(trace.size(), 16u);
  for (const json& request : trace) {
    EXPECT_EQ(request["cached_prompt_tokens"], 0) << request;
  }
}

TEST(SimPrefixCache, WithTheCacheOffTheSplitIsUnknownNotZero) {
  TempDir dir;
  const std::vector<json> lines = sweep_twice("off", dir);
  ASSERT_EQ(lines.size(), 8u);
  for (const json& line : lines) {
    EXPECT_TRUE(line["cached_prompt_tokens"].is_null()) << line;
    EXPECT_TRUE(line["computed_prompt_tokens"].is_null());
    EXPECT_EQ(line["cached_prompt_token_source"], "none");
  }
}

}  // namespace
