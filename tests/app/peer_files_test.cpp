// What a run writes and prints for the peers' scripts once the dialect code has set
// OutputOptions::peer_results: SGLang's line appended to --output-file per measurement (SGLang
// opens it "a"), vLLM's files (a shared --result-filename appended to), vLLM's block only when
// asked.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/app/run/peer_files.hpp"
#include "run_process.hpp"

namespace {

using bench::app::OutputPlan;
using bench::app::PointReport;
using bench::app::RunResults;
using bench::testing::TempDir;

PointReport peer_point(std::int64_t concurrency) {
  PointReport point;
  point.summary.sent = point.summary.completed = 3;
  point.summary.e2e_ms.count = 3;
  point.summary.e2e_ms.mean = point.summary.e2e_ms.median = point.summary.e2e_ms.p99 = 40;
  point.context.endpoint = "chat";
  point.context.model = "org/m";
  point.context.concurrency = concurrency;
  point.context.request_rate = std::numeric_limits<double>::infinity();
  return point;
}

RunResults peer_sweep() {
  RunResults run;
  run.points = {peer_point(1), peer_point(4)};
  run.results = nlohmann::json::object();
  return run;
}

std::vector<std::string> peer_file_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(PeerFiles, sglang_output_file_gets_one_line_per_point_after_what_it_held) {
  const TempDir dir;
  OutputPlan output;
  output.output_file = dir.file("runs.jsonl");
  std::ofstream(output.output_file) << "{\"earlier\":1}\n";
  output.peer_results.sglang_output_file = true;
  bench::app::append_sglang_lines(output, peer_sweep());
  const std::vector<std::string> lines = peer_file_lines(output.output_file);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "{\"earlier\":1}");
  EXPECT_EQ(nlohmann::json::parse(lines[1])["max_concurrency"], 1);
  EXPECT_EQ(nlohmann::json::parse(lines[2])["max_concurrency"], 4);
  EXPECT_EQ(nlohmann::json::parse(lines[2])["mean_e2e_latency_ms"], 40.0);
}

TEST(PeerFiles, one_result_filename_for_a_sweep_holds_each_point_on_its_line) {
  const TempDir dir;
  OutputPlan output;
  output.peer_results.save_result = true;
  output.peer_results.result_dir = dir.path();
  output.peer_results.result_filename = "all.json";
  std::ostringstream err;
  EXPECT_TRUE(bench::app::write_vllm_files(output, peer_sweep(), err)) << err.str();
  const std::vector<std::string> lines = peer_file_lines(dir.file("all.json"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(lines[0])["max_concurrency"], 1);
  EXPECT_EQ(nlohmann::json::parse(lines[1])["max_concurrency"], 4);
}

TEST(PeerFiles, vllm_block_only_when_asked) {
  OutputPlan output;
  EXPECT_EQ(bench::app::vllm_summaries(output, peer_sweep()), "");
  output.peer_results.vllm_summary = true;
  const std::string text = bench::app::vllm_summaries(output, peer_sweep());
  EXPECT_NE(text.find("Maximum request concurrency:             1"), std::string::npos) << text;
  EXPECT_NE(text.find("Maximum request concurrency:             4"), std::string::npos) << text;
}

}  // namespace
