// vLLM's result-file flags (vllm/benchmarks/serve.py add_cli_args): vLLM's defaults, each
// value landing in OutputOptions::peer_results, and one usage line for a value vLLM's file
// could not be written from.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::testing::parse_args;

TEST(PeerResultFlags, defaults_are_vllms) {
  const auto& peer = parse_args({}).run.output.peer_results;
  EXPECT_FALSE(peer.save_result);
  EXPECT_FALSE(peer.writes_vllm_file());
  EXPECT_EQ(peer.percentile_metrics, (std::vector<std::string>{"ttft", "tpot", "itl"}));
  EXPECT_EQ(peer.metric_percentiles, std::vector<double>{99});
  EXPECT_TRUE(peer.backend.empty());
  EXPECT_FALSE(peer.sglang_output_file);
  EXPECT_FALSE(peer.vllm_summary);
}

TEST(PeerResultFlags, each_value_lands_where_the_writers_read_it) {
  const auto parsed = parse_args(
      {"--save-result", "--save-detailed", "--append-result", "--result-dir", "out",
       "--result-filename", "r.json", "--label", "mine", "--metadata", "gpu=H100", "tp = 2",
       "--percentile-metrics", "ttft,tpot,itl,e2el", "--metric-percentiles", "0.1,25,99.9"});
  ASSERT_FALSE(parsed.exit_code.has_value()) << parsed.message;
  const auto& peer = parsed.run.output.peer_results;
  EXPECT_TRUE(peer.save_result && peer.save_detailed && peer.append_result);
  EXPECT_EQ(peer.result_dir, "out");
  EXPECT_EQ(peer.result_filename, "r.json");
  EXPECT_EQ(peer.label, "mine");
  const std::vector<std::pair<std::string, std::string>> metadata = {{"gpu", "H100"}, {"tp", "2"}};
  EXPECT_EQ(peer.metadata, metadata);
  EXPECT_EQ(peer.percentile_metrics, (std::vector<std::string>{"ttft", "tpot", "itl", "e2el"}));
  EXPECT_EQ(peer.metric_percentiles, (std::vector<double>{0.1, 25, 99.9}));
}

// vLLM reads the names it knows and ignores the rest (InferenceMAX's scripts pass "o2el"): bench
// too, and says so at start.
TEST(PeerResultFlags, ignores_metric_names_vllm_ignores_and_says_so) {
  const auto parsed = parse_args({"--percentile-metrics", "ttft,o2el,e2el"});
  ASSERT_FALSE(parsed.exit_code.has_value()) << parsed.message;
  const auto& peer = parsed.run.output.peer_results;
  EXPECT_EQ(peer.percentile_metrics, (std::vector<std::string>{"ttft", "e2el"}));
  EXPECT_EQ(peer.unknown_percentile_metrics, std::vector<std::string>{"o2el"});
  bool said = false;
  for (const std::string& note : parsed.run.dialect_notes) {
    said = said || note.find("--percentile-metrics: o2el not vLLM's") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

TEST(PeerResultFlags, refuses_bad_values_in_one_line_naming_the_flag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--metric-percentiles", "99,101"},
       "bench: error: --metric-percentiles: '101' is not a percentile from 0 to 100 (e.g. "
       "25,50,99.9)\n"},
      {{"--metric-percentiles", "p99"},
       "bench: error: --metric-percentiles: 'p99' is not a percentile from 0 to 100 (e.g. "
       "25,50,99.9)\n"},
      {{"--metadata", "gpu"}, "bench: error: --metadata: 'gpu' is not KEY=VALUE\n"},
  };
  for (const auto& [flags, message] : cases) {
    const auto parsed = parse_args(flags);
    EXPECT_EQ(parsed.exit_code, bench::cli::kExitUsage) << message;
    EXPECT_EQ(parsed.message, message);
  }
}

}  // namespace
