// The embedded server's prefix cache seen through bench: a two-point sweep sends the same
// prompts to both points (run_benchmark.cpp), so with the cache on the second point's requests
// are served from it: the per-request JSONL says how many prompt tokens were cached, and their
// TTFT drops. With the cache off the server discloses nothing, and bench says unknown, not 0.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

std::vector<json> read_jsonl(const std::string& path) {
  std::vector<json> lines;
  std::istringstream in(bench::testing::read_file(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

// Measured requests of a `--concurrency 4,4` sweep of 4 prompts of 512 words on the tiny
// engine made slow to prefill (0.2 ms per prompt token: ~100 ms per uncached prompt).
std::vector<json> sweep_twice(const std::string& cache, const TempDir& dir) {
  const std::string requests_path = dir.file("requests-" + cache + ".jsonl");
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--sim-profile", "tiny", "--sim-prefix-cache", cache, "--sim-prefill-us-per-token", "200",
       "--concurrency", "4,4", "--num-prompts", "4", "--input-len", "512", "--output-len", "4",
       "--ignore-eos", "--save-requests", requests_path, "--output-format", "json", "--quiet"});
  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<json> measured;
  for (json& line : read_jsonl(requests_path)) {
    if (!line["warmup"].get<bool>()) measured.push_back(std::move(line));
  }
  return measured;
}

double mean_ttft_ms(const std::vector<json>& lines, std::size_t from, std::size_t to) {
  double sum = 0;
  for (std::size_t i = from; i < to; ++i) sum += lines[i]["ttft_ms"].get<double>();
  return sum / static_cast<double>(to - from);
}

TEST(SimPrefixCache, TheSecondPointOfASweepIsServedFromTheCacheAndSaysSo) {
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
  }
  // ~100 ms of prefill for 4 x 512 tokens at once, against ~3 ms for 4 x 16.
  EXPECT_LT(mean_ttft_ms(lines, 4, 8), mean_ttft_ms(lines, 0, 4) / 2);
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
