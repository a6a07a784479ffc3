// bench search through the real binary: the bracket it ends with (the last passing load meets
// every SLO, the first failing one breaks one, within the resolution), a search met everywhere
// ending at the cap, one never met ending at the start (exit 4), and bad input refused in one
// line, exit 2, before anything is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"
#include "search_args.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::search_args;
using nlohmann::json;

using bench::cli::kExitGateFailed;
using bench::cli::kExitUsage;
using bench::testing::quick_sim;

TEST(Search, EndsAtTheCapWhenEveryLoadMeetsTheSlosAndItsFileRendersAsAReport) {
  bench::sim::SimServer server(quick_sim());
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
  const ProcessResult report =
      run_process(BENCH_BINARY, {"report", dir.file("search.json"), "-o", dir.file("search.html")});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(bench::testing::read_file(dir.file("search.html")).find("<svg"), std::string::npos);
}

TEST(Search, EndsAtTheStartWithAClearMessageWhenNoLoadMeetsTheSlos) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run = run_process(
      BENCH_BINARY,
      search_args(server, {"--start", "2", "--num-prompts", "4", "--slo", "p99_ttft_ms<=0.001"}));
  EXPECT_EQ(run.exit_code, kExitGateFailed) << run.err;
  EXPECT_NE(run.out.find("bench search: no answer: the first probe, concurrency 2, already "
                         "fails p99_ttft_ms<=0.001 (p99_ttft_ms = "),
            std::string::npos)
      << run.out;
}

// The default window warms each concurrency probe up with one wave (its opening burst judged by
// no SLO); --slo-window whole sends none. --min-goodput alone is a search's SLO.
TEST(Search, SteadyWindowWarmsEachProbeUpWithOneWaveAndMinGoodputIsAnSlo) {
  bench::sim::SimServer server(quick_sim());
  for (const std::string window : {"steady", "whole"}) {
    const ProcessResult run = run_process(
        BENCH_BINARY, search_args(server, {"--max", "4", "--num-prompts", "8", "--goodput",
                                           "ttft:5000", "--min-goodput", "95%", "--slo-window",
                                           window, "--output-format", "json"}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json results = json::parse(run.out);
    const json& search = results["search"];
    EXPECT_EQ(search["slos"], json::array({"good_request_share>=0.95"}));
    EXPECT_EQ(search["slo_window"], window);
    EXPECT_EQ(search["end"], "cap_met") << search.dump(2);
    EXPECT_EQ(results["workload"]["fingerprint"].get<std::string>().size(), 16u);
    ASSERT_EQ(results["points"].size(), 3u);  // 1, 2, 4
    for (const json& point : results["points"]) {
      const int concurrency = point["max_concurrency"].get<int>();
      EXPECT_EQ(point["warmup_requests"], window == "steady" ? concurrency : 0) << window;
      // --num-prompts, or four waves of the probe's concurrency when that is more.
      EXPECT_EQ(point["good_requests"], std::max(8, 4 * concurrency)) << window;
    }
  }
}

TEST(Search, RefusesBadInputInOneLineBeforeSendingAnything) {
  bench::sim::SimServer server(quick_sim());
  const struct {
    std::vector<std::string> flags;
    std::string says;
  } cases[] = {
      {{"--slo", "p99_ttft<=500"}, "did you mean p99_ttft_ms?"},
      {{"--slo", "p99_ttft_ms<=abc"}, "VALUE 'abc' is not a number"},
      {{"--slo", "p99_ttft_ms<=500", "--over", "tokens"},
       "--over: tokens not in {concurrency,rate}"},
      {{"--slo", "p99_ttft_ms<=500", "--concurrency", "8"}, "--concurrency: bench search"},
      {{"--slo", "p99_ttft_ms<=500", "--resolution", "0"}, "--resolution: '0'"},
      {{}, "needs at least one --slo"},
      {{"--slo", "p99_ttft_ms<=500", "--slo-window", "tail"},
       "--slo-window: tail not in {steady,whole}"},
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
