// bench search's answers against the simulator's batching profiles: the bracket it ends with
// (the last passing load meets every SLO, the first failing one breaks one, within the
// resolution) and the knee a dense sweep finds. Both read latencies the simulator models in
// real time, which a loaded host or a sanitizer bends: labelled timing, run alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"
#include "search_args.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::search_args;
using nlohmann::json;

TEST(SearchTiming, BracketsTheLargestConcurrencyMeetingATpotSloWithinTheResolution) {
  bench::sim::SimOptions options;
  options.profile = "tiny";  // time per token grows with the batch: 1 ms + 10 us per sequence
  options.time_scale = 2;
  bench::sim::SimServer server(options);
  const ProcessResult run = run_process(
      BENCH_BINARY,
      search_args(server, {"--start", "8", "--max", "128", "--num-prompts", "160", "--output-len",
                           "32", "--ignore-eos", "--slo", "median_tpot_ms<=0.75", "--resolution",
                           "10%", "--slo-window", "whole", "--output-format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["kind"], "search");
  const json& search = results["search"];
  EXPECT_EQ(search["slos"], json::array({"median_tpot_ms<=0.75"}));
  ASSERT_TRUE(search["answer"].is_number()) << search.dump(2);
  ASSERT_TRUE(search["first_failing"].is_object()) << search.dump(2);
  const double passing = search["answer"].get<double>();
  const double failing = search["first_failing"]["load"].get<double>();
  EXPECT_GT(failing, passing);
  EXPECT_LE(failing - passing, std::max(1.0, 0.10 * passing)) << search.dump(2);
  EXPECT_EQ(search["end"], "resolved");
  // Every probe is a point of the results, in load order, judged by the SLO as reported.
  ASSERT_EQ(results["points"].size(), search["probes"].size());
  double previous = 0;
  for (const json& point : results["points"]) {
    const double load = point["max_concurrency"].get<double>();
    EXPECT_GT(load, previous);
    previous = load;
    const bool met = point["median_tpot_ms"].get<double>() <= 0.75;
    EXPECT_EQ(met, load <= passing) << load;
  }
}

// pcie-8gpu-moe with a KV budget for about 37 requests of 16 + 12 tokens: beyond it requests
// queue for a whole request's time, so TTFT jumps (~14 -> ~80 ms at time scale 50); p90 jumps
// once over a tenth of them queue (about 44; p90, not p99, so a stray slow request on a busy
// host moves nothing). The search must find the knee a dense sweep of the same workload finds,
// within its resolution.
TEST(SearchTiming, TheAnswerMatchesADenseSweepOnTheMoeProfile) {
  const std::vector<std::string> workload = {"--sim-profile",
                                             "pcie-8gpu-moe",
                                             "--sim-time-scale",
                                             "50",
                                             "--sim-kv-cache-tokens",
                                             "1024",
                                             "--num-prompts",
                                             "64",
                                             "--input-len",
                                             "16",
                                             "--output-len",
                                             "12",
                                             "--ignore-eos",
                                             "--per-chunk-usage",
                                             "off",
                                             "--quiet",
                                             "--output-format",
                                             "json"};
  const double slo_ms = 40;
  std::vector<std::string> command = {
      "search",          "--start",      "16",    "--max",        "64", "--slo",
      "p90_ttft_ms<=40", "--slo-window", "whole", "--resolution", "2"};
  command.insert(command.end(), workload.begin(), workload.end());
  const ProcessResult search = run_process(BENCH_BINARY, command);
  ASSERT_EQ(search.exit_code, 0) << search.err;
  const json answer = json::parse(search.out)["search"]["answer"];
  ASSERT_TRUE(answer.is_number()) << search.out;

  std::vector<std::string> sweep_args = {"--concurrency", "30,32,34,36,38,40,42,44,46,48,50"};
  sweep_args.insert(sweep_args.end(), workload.begin(), workload.end());
  const ProcessResult sweep = run_process(BENCH_BINARY, sweep_args);
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  double dense = 0;  // the largest swept concurrency below which every point met the SLO
  const json swept = json::parse(sweep.out);
  for (const json& point : swept["points"]) {
    if (point["p90_ttft_ms"].get<double>() > slo_ms) break;
    dense = point["max_concurrency"].get<double>();
  }
  ASSERT_GT(dense, 30) << sweep.out;
  ASSERT_LT(dense, 50) << sweep.out;
  EXPECT_NEAR(answer.get<double>(), dense, 2) << search.out;
}

}  // namespace
