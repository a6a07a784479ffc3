// bench compare with vLLM's or SGLang's own result file on a side (results/peer_file_read.hpp):
// the figures both know side by side under bench's names, and one warning that says whose file
// it is instead of calling it an older bench's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "bench/compare/compare.hpp"
#include "bench/results/read_file.hpp"
#include "compare_helpers.hpp"

namespace {

using bench::testing::compared;
using bench::testing::row;
using nlohmann::json;

json read_file(const std::string& path) {
  auto file = bench::results::read_results_file(path);
  if (const auto* error = std::get_if<bench::results::FormatError>(&file)) {
    ADD_FAILURE() << error->message;
    return json();
  }
  return std::get<bench::results::ResultsFile>(file).results;
}

const std::string kData = std::string(BENCH_TEST_DATA_DIR);

TEST(PeerFileCompare, AVllmFileIsComparedWithABenchRunByBenchsNames) {
  const json vllm = read_file(kData + "/peer_results/vllm_save_result.json");
  const json bench_run = read_file(kData + "/compare/run_c4.json");
  const auto comparison = compared(vllm, bench_run);
  const auto& ttft = row(comparison, "median_ttft_ms");
  ASSERT_TRUE(ttft.base_value.has_value());
  EXPECT_EQ(*ttft.base_value, vllm["median_ttft_ms"].get<double>());
  EXPECT_TRUE(row(comparison, "total_throughput").base_value.has_value());
  ASSERT_EQ(comparison.warnings.size(), 1U) << comparison.warnings.front();
  EXPECT_NE(comparison.warnings[0].find("is a result file in vLLM's format"), std::string::npos);
  EXPECT_EQ(comparison.warnings[0].find("older bench"), std::string::npos);
}

TEST(PeerFileCompare, TheSetupSaysWhoseFormatEachSideIsAndWhatTheOtherRecords) {
  const json vllm = read_file(kData + "/peer_results/vllm_save_result.json");
  json bench_run = read_file(kData + "/compare/run_c4.json");
  bench_run["server"] = {{"family", "vllm"}, {"version", "0.11.0"}};
  const auto comparison = compared(vllm, bench_run);
  ASSERT_GE(comparison.setup.size(), 3U);
  EXPECT_EQ(comparison.setup[0].label, "results file format");
  EXPECT_EQ(comparison.setup[0].base, "vLLM's");
  EXPECT_EQ(comparison.setup[0].next, "bench's");
  EXPECT_EQ(comparison.setup[1].label, "server engine");
  EXPECT_TRUE(comparison.setup[1].base.is_null());  // vLLM's file does not say
  EXPECT_EQ(comparison.setup[2].next, "0.11.0");
  const std::string text = bench::compare::render_text(comparison);
  EXPECT_NE(text.find("  results file format    vLLM's -> bench's\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  server version         unknown -> 0.11.0\n"), std::string::npos) << text;
}

TEST(PeerFileCompare, FilesThatRecordNoSetupShowNone) {
  const json run = read_file(kData + "/compare/run_c4.json");
  EXPECT_TRUE(compared(run, run).setup.empty());
}

TEST(PeerFileCompare, AnSglangLineIsJudgedByTheThreshold) {
  const json sglang = read_file(kData + "/peer_results/sglang_output_file.jsonl");
  json slower = sglang;
  slower["median_ttft_ms"] = sglang["median_ttft_ms"].get<double>() * 2;
  const auto comparison = compared(sglang, slower, 0.05);
  EXPECT_TRUE(comparison.failed());
  EXPECT_EQ(row(comparison, "median_ttft_ms").verdict, bench::compare::Verdict::regression);
}

}  // namespace
