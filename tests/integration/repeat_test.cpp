// --repeat N through the real binary: every repeat measured through the same path with its own
// prompts, the JSON keeping each repeat and the summary, the text report's intervals, gates on
// the mean; and the refusals of bad values (one line, exit 2, nothing sent).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

using bench::cli::kExitUsage;

TEST(Repeat, MeasuresEachRepeatWithFreshPromptsAndReportsTheMeanWithItsInterval) {
  TempDir dir;
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  sim.jitter_ms = 4;  // noise of a known size: each request waits 0-8 ms more
  sim.trace_path = dir.file("trace.jsonl");
  json results;
  ProcessResult run;
  {
    bench::sim::SimServer server(sim);
    run = run_process(
        BENCH_BINARY,
        bench::testing::without_answer_check(
            {"--base-url", server.base_url(), "--quiet", "--repeat", "3", "--num-prompts", "8",
             "--concurrency", "4", "--output-len", "4", "--per-chunk-usage", "off", "--fail-under",
             "output_throughput=1", "--output-file", dir.file("results.json")}));
  }
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("mean ± half-width (95% CI, Student's t, 3 repeats)"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("output tok/s"), std::string::npos) << run.out;
  // Per user is always measured; per GPU and cost need --gpus and a price, so they are left out.
  EXPECT_NE(run.out.find("output tok/s per user p50"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("per GPU"), std::string::npos) << run.out;
  std::ifstream in(dir.file("results.json"));
  results = json::parse(in);
  EXPECT_EQ(results["kind"], "run");
  ASSERT_EQ(results["repeat_runs"].size(), 3u);
  EXPECT_EQ(results["repeats"]["count"], 3);
  EXPECT_EQ(results["repeats"]["interval"], "student_t");
  const json& output = results["repeats"]["figures"]["output_throughput"];
  EXPECT_EQ(output["values"].size(), 3u);
  EXPECT_TRUE(output["half_width"].is_number());
  double sum = 0;
  for (const json& repeat : results["repeat_runs"]) {
    EXPECT_EQ(repeat["completed"], 8);
    // One workload: each repeat's fingerprint is the run's.
    EXPECT_EQ(repeat["workload"]["fingerprint"], results["workload"]["fingerprint"]);
    sum += repeat["output_throughput"].get<double>();
  }
  EXPECT_NEAR(results["output_throughput"].get<double>(), sum / 3, 1e-9);
  EXPECT_EQ(results["gates"]["violations"].size(), 0u);
  // Fresh prompts: the server saw 24 different ones.
  std::set<std::string> prompts;
  std::ifstream trace(dir.file("trace.jsonl"));
  for (std::string line; std::getline(trace, line);) {
    prompts.insert(json::parse(line)["prompt_hash"].get<std::string>());
  }
  EXPECT_EQ(prompts.size(), 24u);
}

// The efficiency figures are repeated figures like the rest: each repeat's, their mean and its
// interval, in the JSON and the text report.
TEST(Repeat, ReportsTheEfficiencyFiguresOfEachRepeat) {
  TempDir dir;
  bench::sim::SimOptions sim;
  sim.ttft_ms = 2;
  sim.tpot_ms = 1;
  ProcessResult run;
  {
    bench::sim::SimServer server(sim);
    run = run_process(BENCH_BINARY, bench::testing::without_answer_check(
                                        {"--base-url", server.base_url(), "--quiet", "--repeat",
                                         "2", "--num-prompts", "6", "--concurrency", "3",
                                         "--output-len", "4", "--gpus", "2", "--gpu-hour-price",
                                         "3", "--output-file", dir.file("results.json")}));
  }
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* label : {"output tok/s per GPU", "input tok/s per GPU", "total tok/s per GPU",
                            "output tok/s per user p10", "USD per M output tokens"}) {
    EXPECT_NE(run.out.find(label), std::string::npos) << label << "\n" << run.out;
  }
  EXPECT_EQ(run.out.find("J per output token"), std::string::npos) << run.out;  // no counter
  std::ifstream in(dir.file("results.json"));
  const json results = json::parse(in);
  const json& figures = results["repeats"]["figures"];
  ASSERT_TRUE(figures["output_throughput_per_gpu"].is_object()) << figures.dump();
  for (std::size_t i = 0; i < 2; ++i) {
    const json& repeat = results["repeat_runs"][i];
    EXPECT_DOUBLE_EQ(figures["output_throughput_per_gpu"]["values"][i].get<double>(),
                     repeat["output_throughput"].get<double>() / 2);
  }
  EXPECT_TRUE(figures["joules_per_output_token"].is_null());
}

TEST(Repeat, RefusesAZeroOrNonNumericCountAndAnUnknownGateReadingInOneLine) {
  bench::sim::SimServer server(bench::sim::SimOptions{});
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--repeat", "0"},
                                              {"--repeat", "abc"},
                                              {"--repeat", "-2"},
                                              {"--gate-on", "best"}}) {
    std::vector<std::string> args = {"--base-url", server.base_url(), "--num-prompts", "2"};
    args.insert(args.end(), bad.begin(), bad.end());
    const ProcessResult run = run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
    EXPECT_EQ(run.exit_code, kExitUsage) << bad[1] << ": " << run.err;
    EXPECT_NE(run.err.find(bad[0]), std::string::npos) << run.err;
    EXPECT_EQ(run.err.rfind("bench: error: " + bad[0], 0), 0u) << run.err;  // one error line
    EXPECT_EQ(run.err.find("bench: error", 1), std::string::npos) << run.err;
  }
  EXPECT_EQ(server.requests_served(), 0u);
}

}  // namespace
