// The prompt cache as the reports tell it, through the real binary: one `bench serve-sim
// --prefix-cache on`, and the same run sent to it twice with the same seed, so the second run
// resends the first one's prompts and the server's cache serves them. The first run reports
// 0% cached with the disclosure note; the second a cached share above 10% and the warning, in
// the text report, on stderr and in the JSON's warnings.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "serve_sim_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using nlohmann::json;

constexpr const char* kWarning = "of input tokens were served from the server's prefix cache";

struct CacheRun {
  ProcessResult process;
  json results;
};

CacheRun run_against(const std::string& base_url, const std::string& results_path) {
  CacheRun run;
  run.process = run_process(
      BENCH_BINARY, {"--base-url", base_url, "--concurrency", "4", "--num-prompts", "8",
                     "--input-len", "256", "--output-len", "4", "--ignore-eos", "--seed", "1",
                     "--warmup-requests", "0", "--output-file", results_path});
  const std::string text = bench::testing::read_file(results_path);
  if (!text.empty()) run.results = json::parse(text);
  return run;
}

TEST(PromptCacheReport, ARerunServedFromTheCacheIsWarnedAndTheFirstRunSaysZeroCached) {
  TempDir dir;
  ServeSimProcess serve_sim(BENCH_BINARY, {"--profile", "tiny", "--prefix-cache", "on"}, dir);
  const std::string& base_url = serve_sim.base_url();
  CacheRun first, second;
  if (!base_url.empty()) {
    first = run_against(base_url, dir.file("first.json"));
    second = run_against(base_url, dir.file("second.json"));
  }
  const ProcessResult& server = serve_sim.stop();
  ASSERT_FALSE(base_url.empty()) << server.err;
  ASSERT_EQ(first.process.exit_code, 0) << first.process.err;
  ASSERT_EQ(second.process.exit_code, 0) << second.process.err;

  // First run: fresh prompts, disclosed as 0 cached, and no warning.
  EXPECT_EQ(first.results["input_split_disclosure"], "all");
  EXPECT_EQ(first.results["total_cached_input_tokens"], 0);
  EXPECT_EQ(first.results["total_computed_input_tokens"], first.results["total_input_tokens"]);
  EXPECT_EQ(first.results["cached_input_share"], 0.0);
  EXPECT_EQ(first.results["warnings"], json::array());
  EXPECT_NE(first.process.out.find(
                "Prompt cache:                     server disclosed cached tokens on all "
                "requests: 0.0% cached"),
            std::string::npos)
      << first.process.out;
  EXPECT_EQ(first.process.err.find(kWarning), std::string::npos) << first.process.err;

  // Second run: the same prompts again, served from the cache; the split still adds up.
  const json& r = second.results;
  EXPECT_EQ(r["input_split_disclosure"], "all");
  ASSERT_TRUE(r["cached_input_share"].is_number()) << r["cached_input_share"];
  EXPECT_GT(r["cached_input_share"].get<double>(), 0.1);
  EXPECT_EQ(r["total_computed_input_tokens"].get<std::int64_t>() +
                r["total_cached_input_tokens"].get<std::int64_t>(),
            r["total_input_tokens"].get<std::int64_t>());
  ASSERT_EQ(r["warnings"].size(), 1u) << r["warnings"];
  EXPECT_NE(r["warnings"][0].get<std::string>().find(kWarning), std::string::npos);
  EXPECT_NE(second.process.out.find(std::string("WARNING: ") + r["warnings"][0].get<std::string>()),
            std::string::npos)
      << second.process.out;
  EXPECT_NE(second.process.err.find(kWarning), std::string::npos) << second.process.err;
  EXPECT_NE(second.process.out.find("  cached (prefix cache):"), std::string::npos);
}

}  // namespace
