// bench search through the real binary: the bracket it ends with (the last passing load meets
// every SLO, the first failing one breaks one, within the resolution), a search met everywhere
// ending at the cap, one never met ending at the start (exit 4), and bad input refused in one
// line, exit 2, before anything is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using nlohmann::json;

constexpr int kExitUsage = 2;
constexpr int kExitGateFailed = 4;

std::vector<std::string> search_args(const bench::sim::SimServer& server,
                                     std::vector<std::string> more) {
  std::vector<std::string> args = {"search",      "--base-url",        server.base_url(),
                                   "--quiet",     "--output-len",      "8",
                                   "--input-len", "16",                "--per-chunk-usage",
                                   "off"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

bench::sim::SimOptions fixed_sim() {
  bench::sim::SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 1;
  return options;
}

TEST(Search, BracketsTheLargestConcurrencyMeetingATpotSloWithinTheResolution) {
  bench::sim::SimOptions options;
  options.profile = "tiny";  // time per token grows with the batch: 1 ms + 10 us per sequence
  options.time_scale = 2;
  bench::sim::SimServer server(options);
  const ProcessResult run = run_process(
      BENCH_BINARY,
      search_args(server, {"--start", "8", "--max", "128", "--num-prompts", "160",
                           "--output-len", "32", "--ignore-eos", "--slo",
                           "median_tpot_ms<=0.75", "--resolution", "10%", "--slo-window",
                           "whole", "--output-format", "json"}));
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
TEST(Search, TheAnswerMatchesADenseSweepOnTheMoeProfile) {
  const std::vector<std::string> workload = {
      "--sim-profile", "pcie-8gpu-moe", "--sim-time-scale", "50", "--sim-kv-cache-tokens", "1024",
      "--num-prompts", "64", "--input-len", "16", "--output-len", "12", "--ignore-eos",
      "--per-chunk-usage", "off", "--quiet", "--output-format", "json"};
  const double slo_ms = 40;
  std::vector<std::string> search_args = {"search", "--start", "16", "--max", "64", "--slo",
                                          "p90_ttft_ms<=40", "--slo-window", "whole",
                                          "--resolution", "2"};
  search_args.insert(search_args.end(), workload.begin(), workload.end());
  const ProcessResult search = run_process(BENCH_BINARY, search_args);
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

TEST(Search, EndsAtTheCapWhenEveryLoadMeetsTheSlosAndItsFileRendersAsAReport) {
  bench::sim::SimServer server(fixed_sim());
  bench::testing::TempDir dir;
  const ProcessResult run = run_process(
      BENCH_BINARY,
      search_args(server, {"--max", "8", "--num-prompts", "8", "--slo", "p99_ttft_ms<=5000",
                           "--slo", "error_rate<=0", "--output-file", dir.file("search.json")}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("bench search: answer: concurrency 8 meets every SLO; it is the --max "
                         "cap: no probe failed, the limit lies above it"),
            std::string::npos)
      << run.out;
  const ProcessResult report = run_process(
      BENCH_BINARY, {"report", dir.file("search.json"), "-o", dir.file("search.html")});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(bench::testing::read_file(dir.file("search.html")).find("<svg"), std::string::npos);
}

TEST(Search, EndsAtTheStartWithAClearMessageWhenNoLoadMeetsTheSlos) {
  bench::sim::SimServer server(fixed_sim());
  const ProcessResult run = run_process(
      BENCH_BINARY, search_args(server, {"--start", "2", "--num-prompts", "4", "--slo",
                                         "p99_ttft_ms<=0.001"}));
  EXPECT_EQ(run.exit_code, kExitGateFailed) << run.err;
  EXPECT_NE(run.out.find("bench search: no answer: the first probe, concurrency 2, already "
                         "fails p99_ttft_ms<=0.001 (p99_ttft_ms = "),
            std::string::npos)
      << run.out;
}

// The default window warms each concurrency probe up with one wave (its opening burst judged by
// no SLO); --slo-window whole sends none. --min-goodput alone is a search's SLO.
TEST(Search, SteadyWindowWarmsEachProbeUpWithOneWaveAndMinGoodputIsAnSlo) {
  bench::sim::SimServer server(fixed_sim());
  for (const std::string window : {"steady", "whole"}) {
    const ProcessResult run = run_process(
        BENCH_BINARY,
        search_args(server, {"--max", "4", "--num-prompts", "8", "--goodput", "ttft:5000",
                             "--min-goodput", "95%", "--slo-window", window,
                             "--output-format", "json"}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json results = json::parse(run.out);
    const json& search = results["search"];
    EXPECT_EQ(search["slos"], json::array({"good_request_share>=0.95"}));
    EXPECT_EQ(search["slo_window"], window);
    EXPECT_EQ(search["end"], "cap_met") << search.dump(2);
    EXPECT_EQ(results["workload"]["fingerprint"].get<std::string>().size(), 16u);
    ASSERT_EQ(results["points"].size(), 3u);  // 1, 2, 4
    for (const json& point : results["points"]) {
      const int warmup = window == "steady" ? point["max_concurrency"].get<int>() : 0;
      EXPECT_EQ(point["warmup_requests"], warmup) << window;
      EXPECT_EQ(point["good_requests"], 8) << window;
    }
  }
}

TEST(Search, RefusesBadInputInOneLineBeforeSendingAnything) {
  bench::sim::SimServer server(fixed_sim());
  const struct {
    std::vector<std::string> flags;
    std::string says;
  } cases[] = {
      {{"--slo", "p99_ttft<=500"}, "did you mean p99_ttft_ms?"},
      {{"--slo", "p99_ttft_ms<=abc"}, "VALUE 'abc' is not a number"},
      {{"--slo", "p99_ttft_ms<=500", "--over", "tokens"}, "--over: 'tokens' is not"},
      {{"--slo", "p99_ttft_ms<=500", "--concurrency", "8"}, "--concurrency: bench search"},
      {{"--slo", "p99_ttft_ms<=500", "--resolution", "0"}, "--resolution: '0'"},
      {{}, "needs at least one --slo"},
      {{"--slo", "p99_ttft_ms<=500", "--slo-window", "tail"}, "--slo-window: 'tail' is not"},
      {{"--min-goodput", "95%"}, "--min-goodput: needs --goodput"},
      {{"--goodput", "ttft:500", "--min-goodput", "150%"}, "--min-goodput: '150%' is not"},
  };
  for (const auto& bad : cases) {
    const ProcessResult run = run_process(BENCH_BINARY, search_args(server, bad.flags));
    EXPECT_EQ(run.exit_code, kExitUsage) << bad.says << ": " << run.err;
    EXPECT_NE(run.err.find(bad.says), std::string::npos) << run.err;
    EXPECT_EQ(run.err.rfind("bench: error: ", 0), 0u) << run.err;
    EXPECT_EQ(run.err.find("bench: error", 1), std::string::npos) << run.err;
  }
  EXPECT_EQ(server.requests_served(), 0u);
}

}  // namespace
