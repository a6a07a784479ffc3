// Chaos suite: loads that cannot happen, said before they mislead (issue 43, item 5). A closed
// loop whose --concurrency exceeds the requests it sends says so at start and in its results;
// --duration with --num-prompts ends at whichever comes first; a search never answers from a
// probe that could not hold its load or had no steady state.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/sim/sim_server.hpp"
#include "no_answer_check.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace load_limits_test {

using bench::testing::ProcessResult;
using bench::testing::quick_sim;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// bench against `server` with a known model, short requests and `extra`.
ProcessResult run_bench(const bench::sim::SimServer& server, std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "--base-url", server.base_url(),   "--model", "m", "--input-len", "16", "--output-len",
      "8",          "--per-chunk-usage", "off"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
}

bool any_contains(const json& lines, const std::string& text) {
  if (!lines.is_array()) return false;
  for (const json& line : lines) {
    if (line.is_string() && line.get<std::string>().find(text) != std::string::npos) return true;
  }
  return false;
}

// `--concurrency 256 --num-prompts 100` reported Max concurrency 256 beside 97.7 achieved, no
// warning, its steady-state window silently gone.
TEST(LoadLimits, AConcurrencyAboveTheRequestsSentIsSaidAtStartAndInTheResults) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  const ProcessResult run = run_bench(
      server, {"--concurrency", "16", "--num-prompts", "5", "--output-file", dir.file("r.json")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bench: warning: --concurrency 16 cannot be reached: the run sends 5 "
                         "measured requests"),
            std::string::npos)
      << run.err;
  // Said before the run: ahead of the results on stdout, and on stderr before the end.
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")), nullptr, false);
  ASSERT_TRUE(results.is_object());
  EXPECT_TRUE(any_contains(results["warnings"], "--concurrency 16 was never reached"))
      << results["warnings"].dump();
  EXPECT_NE(run.out.find("WARNING: --concurrency 16 was never reached"), std::string::npos)
      << run.out;
}

TEST(LoadLimits, AReachableConcurrencyDrawsNoSuchWarning) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  const ProcessResult run = run_bench(
      server, {"--concurrency", "4", "--num-prompts", "8", "--output-file", dir.file("r.json")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("cannot be reached"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("never reached"), std::string::npos) << run.out;
}

// `--duration 2s --num-prompts 50` sent 474 requests: with both, whichever comes first ends the
// run (GuideLLM's convention), closed loop and open loop alike, and the start-up line says so.
TEST(LoadLimits, ADurationWithNumPromptsEndsAtWhicheverComesFirst) {
  bench::sim::SimServer server(quick_sim());
  for (const std::vector<std::string>& load : {std::vector<std::string>{"--concurrency", "4"},
                                               std::vector<std::string>{"--request-rate", "200"}}) {
    TempDir dir;
    std::vector<std::string> args = {"--duration", "60s",           "--num-prompts",
                                     "20",         "--output-file", dir.file("r.json")};
    args.insert(args.end(), load.begin(), load.end());
    const ProcessResult run = run_bench(server, args);
    ASSERT_EQ(run.exit_code, 0) << load[0] << ": " << run.err;
    EXPECT_NE(run.err.find("for 1m or 20 requests, whichever comes first"), std::string::npos)
        << run.err;
    const json results = json::parse(bench::testing::read_file(dir.file("r.json")), nullptr, false);
    ASSERT_TRUE(results.is_object());
    EXPECT_EQ(results["sent"], 20) << load[0];
    EXPECT_EQ(results["completed"], 20) << load[0];
  }
}

// The search answered "concurrency 256 meets every SLO" from probes that sent 150 requests and
// had no steady state. Now every probe of a concurrency sends at least four waves of it and
// has its steady state, and the answer comes from a probe that held its load.
TEST(LoadLimits, ASearchNeverAnswersFromAProbeThatCouldNotHoldItsLoad) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      run_process(BENCH_BINARY, bench::testing::without_answer_check({"search",
                                                                      "--base-url",
                                                                      server.base_url(),
                                                                      "--model",
                                                                      "m",
                                                                      "--quiet",
                                                                      "--input-len",
                                                                      "16",
                                                                      "--output-len",
                                                                      "8",
                                                                      "--per-chunk-usage",
                                                                      "off",
                                                                      "--num-prompts",
                                                                      "6",
                                                                      "--max",
                                                                      "32",
                                                                      "--slo",
                                                                      "p99_ttft_ms<=5000",
                                                                      "--output-format",
                                                                      "json"}));
  const json results = json::parse(run.out, nullptr, false);
  ASSERT_TRUE(results.is_object()) << run.out << run.err;
  const json& search = results["search"];
  for (const json& point : results["points"]) {
    const long concurrency = point["max_concurrency"].get<long>();
    EXPECT_GE(point["sent"].get<long>(), concurrency) << "a probe that could not hold its load";
  }
  for (const json& probe : search["probes"]) {
    if (probe["met"].get<bool>()) {
      EXPECT_TRUE(probe["load_held"].get<bool>()) << probe.dump();
    }
  }
  ASSERT_TRUE(search["last_passing"].is_object()) << search.dump(2);
  EXPECT_TRUE(search["last_passing"]["load_held"].get<bool>()) << search.dump(2);
  const double answer = search["answer"].get<double>();
  bool answered_with_steady_state = false;
  for (const json& point : results["points"]) {
    if (point["max_concurrency"].get<double>() == answer) {
      answered_with_steady_state = point["steady_state"].is_object();
    }
  }
  EXPECT_TRUE(answered_with_steady_state) << "the answer's probe had no steady state";
}

// A rate sweep's "inf" point without --concurrency has no cap (the engine's 65536 slots): it
// opened a connection per slot before its epoch, 20,000 of them until the open-file limit, and
// aborted on EMFILE (exit 134); its results said max_concurrency 65536 and warned that a limit
// nobody set was never reached.
TEST(LoadLimits, ARateSweepsInfPointWithoutACapOpensWhatItsRequestsNeed) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  const ProcessResult run = run_bench(server, {"--num-prompts", "6", "--request-rate", "50,inf",
                                               "--output-file", dir.file("r.json")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")), nullptr, false);
  ASSERT_TRUE(results.is_object());
  ASSERT_EQ(results["points"].size(), 2u);
  const json& inf_point = results["points"][1];
  EXPECT_EQ(inf_point["request_rate"], "inf");
  EXPECT_TRUE(inf_point["max_concurrency"].is_null()) << inf_point["max_concurrency"];
  EXPECT_LE(inf_point["client"]["preconnect"]["requested"].get<int>(), 6);
  EXPECT_EQ(inf_point["completed"], 6);
  EXPECT_FALSE(any_contains(inf_point["warnings"], "was never reached")) << inf_point["warnings"];
}

}  // namespace load_limits_test
