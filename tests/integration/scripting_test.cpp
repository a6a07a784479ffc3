// bench in scripts and CI, through the real binary: gates and their exit codes, `bench compare`,
// `bench report`, progress only on a terminal, Ctrl-C keeping partial results.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::quick_sim;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

using bench::cli::kExitGateFailed;
using bench::cli::kExitInterrupted;
using bench::cli::kExitRequestsFailed;
using bench::cli::kExitUsage;

std::vector<std::string> small_run(const bench::sim::SimServer& server,
                                   std::vector<std::string> more) {
  std::vector<std::string> args = {"--base-url", server.base_url(), "--quiet", "--num-prompts",
                                   "16",         "--concurrency",   "4",       "--output-len",
                                   "8"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(Gates, PassingGatesExitZeroAndAreRecordedInTheResults) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run = run_process(
      BENCH_BINARY, small_run(server, {"--fail-under", "output_throughput=1", "--fail-over",
                                       "p99_ttft_ms=60000", "--output-format", "json"}));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["gates"]["passed"], true);
  EXPECT_EQ(results["gates"]["gates"].size(), 2u);
}

TEST(Gates, AFailedGateExitsFourWithOneLinePerGate) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      run_process(BENCH_BINARY, small_run(server, {"--fail-under", "output_throughput=100000000",
                                                   "--fail-over", "p99_ttft_ms=0.001"}));
  EXPECT_EQ(run.exit_code, kExitGateFailed) << run.err;
  EXPECT_NE(run.err.find("gate failed: output_throughput = "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("(--fail-under)"), std::string::npos);
  EXPECT_NE(run.err.find("gate failed: p99_ttft_ms = "), std::string::npos);
  // The report is still printed: a failing gate loses nothing.
  EXPECT_NE(run.out.find("Output token throughput"), std::string::npos);
}

TEST(Gates, AMisspeltMetricIsRefusedBeforeAnythingIsSent) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      run_process(BENCH_BINARY, small_run(server, {"--fail-over", "p99_ttfft_ms=5"}));
  EXPECT_EQ(run.exit_code, kExitUsage);
  EXPECT_NE(run.err.find("did you mean p99_ttft_ms?"), std::string::npos) << run.err;
  EXPECT_EQ(server.requests_served(), 0u);
}

TEST(Gates, MaxErrorRateDecidesWhetherFailedRequestsFailTheRun) {
  auto options = quick_sim();
  options.fail_500_fraction = 0.25;
  bench::sim::SimServer server(options);
  // Without the answer check: at a quarter of requests failing, the simulator's seeded draws
  // fail all six of its prompts in the second run, which ends it before it is measured (as it
  // should: tests/chaos/startup_test.cpp); the failures of the measured requests are the case.
  const std::vector<std::string> many = {"--num-prompts", "200", "--per-chunk-usage", "off",
                                         "--no-answer-check"};
  std::vector<std::string> args = small_run(server, many);
  EXPECT_EQ(run_process(BENCH_BINARY, args).exit_code, kExitRequestsFailed);
  args.insert(args.end(), {"--max-error-rate", "50%"});
  EXPECT_EQ(run_process(BENCH_BINARY, args).exit_code, 0);  // within the budget
  args.back() = "5%";
  const ProcessResult over = run_process(BENCH_BINARY, args);
  EXPECT_EQ(over.exit_code, kExitGateFailed);
  EXPECT_NE(over.err.find("--max-error-rate"), std::string::npos) << over.err;
}

TEST(Compare, MarksARegressionAndFailsOnlyBeyondTheThreshold) {
  bench::sim::SimServer fast(quick_sim(5, 1));
  bench::sim::SimServer slow(quick_sim(10, 2));
  TempDir dir;
  ASSERT_EQ(run_process(BENCH_BINARY, small_run(fast, {"--output-file", dir.file("base.json")}))
                .exit_code,
            0);
  ASSERT_EQ(
      run_process(BENCH_BINARY, small_run(slow, {"--output-file", dir.file("new.json")})).exit_code,
      0);
  const ProcessResult plain =
      run_process(BENCH_BINARY, {"compare", dir.file("base.json"), dir.file("new.json")});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;  // no threshold: a report, not a verdict
  EXPECT_NE(plain.out.find("output tok/s"), std::string::npos) << plain.out;
  const ProcessResult gated = run_process(
      BENCH_BINARY,
      {"compare", dir.file("base.json"), dir.file("new.json"), "--fail-on-regression", "5%"});
  EXPECT_EQ(gated.exit_code, kExitGateFailed) << gated.err;
  EXPECT_NE(gated.out.find("REGRESSION"), std::string::npos) << gated.out;
  // Against itself nothing regresses.
  EXPECT_EQ(run_process(BENCH_BINARY, {"compare", dir.file("base.json"), dir.file("base.json"),
                                       "--fail-on-regression", "5%"})
                .exit_code,
            0);
  const ProcessResult as_json = run_process(
      BENCH_BINARY,
      {"compare", dir.file("base.json"), dir.file("new.json"), "--output-format", "json"});
  EXPECT_FALSE(json::parse(as_json.out, nullptr, false).is_discarded()) << as_json.out;
}

TEST(Report, RendersASavedRunAndASavedSweepAsSelfContainedHtml) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  ASSERT_EQ(run_process(BENCH_BINARY, small_run(server, {"--output-file", dir.file("run.json"),
                                                         "--html", dir.file("direct.html")}))
                .exit_code,
            0);
  ASSERT_EQ(run_process(BENCH_BINARY, small_run(server, {"--concurrency", "1,4", "--output-file",
                                                         dir.file("sweep.json")}))
                .exit_code,
            0);
  for (const char* name : {"run", "sweep"}) {
    const std::string html_path = dir.file(std::string(name) + ".html");
    const ProcessResult report = run_process(
        BENCH_BINARY, {"report", dir.file(std::string(name) + ".json"), "-o", html_path});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    const std::string html = bench::testing::read_file(html_path);
    EXPECT_NE(html.find("<svg"), std::string::npos) << name;
    EXPECT_NE(html.find("output tok/s"), std::string::npos) << name;
    EXPECT_EQ(html.find("<script src"), std::string::npos) << "no external resources";
    EXPECT_EQ(html.find("http://cdn"), std::string::npos);
  }
  // --html during the run gives the same report as `bench report` on its results.
  EXPECT_EQ(bench::testing::read_file(dir.file("direct.html")),
            bench::testing::read_file(dir.file("run.html")));
  const ProcessResult not_results =
      run_process(BENCH_BINARY, {"report", dir.file("direct.html"), "-o", dir.file("x.html")});
  EXPECT_EQ(not_results.exit_code, kExitUsage);
}

TEST(Report, RefusesJsonThatIsNotBenchResultsWithOneLineNamingTheFile) {
  TempDir dir;
  const std::string path = dir.file("other.json");
  std::ofstream(path) << R"({"a": 1})";
  const ProcessResult report =
      run_process(BENCH_BINARY, {"report", path, "-o", dir.file("other.html")});
  EXPECT_EQ(report.exit_code, kExitUsage);
  EXPECT_EQ(report.err, "bench report: error: " + path +
                            ": not a bench results object (neither output_throughput nor "
                            "points)\n");
  EXPECT_FALSE(std::ifstream(dir.file("other.html")).good()) << "no empty report is written";
}

TEST(Results, RecordTheEmbeddedServersSettingsAndGiveThePeersItlWithJsonCompat) {
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--quiet", "--num-prompts", "4", "--concurrency", "2", "--output-len", "4",
                   "--sim-time-scale", "10", "--output-format", "json", "--json-compat", "sglang"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["simulator"]["time_scale"], 10.0) << results["simulator"].dump();
  EXPECT_EQ(results["simulator"]["profile"], "fixed");
  EXPECT_EQ(results["json_compat"], "sglang");
  EXPECT_EQ(results["mean_itl_ms"], results["mean_icl_ms"]);
  EXPECT_TRUE(results.contains("mean_itl_per_token_ms"));
}

TEST(Progress, AppearsOnATerminalAndNeverOnAPipe) {
  bench::sim::SimServer server(quick_sim(5, 20));  // ~1 s of streaming: several refreshes
  std::vector<std::string> args = {
      "--base-url", server.base_url(), "--num-prompts", "8", "--concurrency", "4", "--output-len",
      "50"};
  // What only the progress line says ("3/8 done, 4 in flight, 0 failed | ...").
  const std::string kProgress = " in flight, 0 failed |";
  const ProcessResult piped = run_process(BENCH_BINARY, args);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err.find(kProgress), std::string::npos) << piped.err;
  // script(1) gives the command a pseudo-terminal, as a user at a shell has.
  std::string command = std::string(BENCH_BINARY);
  for (const std::string& arg : args) command += " " + arg;
  const ProcessResult on_tty = run_process("/usr/bin/script", {"-qfec", command, "/dev/null"});
  ASSERT_EQ(on_tty.exit_code, 0) << on_tty.err << on_tty.out;
  EXPECT_NE(on_tty.out.find(kProgress), std::string::npos) << on_tty.out;
  EXPECT_NE(on_tty.out.find("output tok/s, ~"), std::string::npos) << on_tty.out;
  // --quiet silences it on a terminal too.
  const ProcessResult quiet =
      run_process("/usr/bin/script", {"-qfec", command + " --quiet", "/dev/null"});
  EXPECT_EQ(quiet.out.find(kProgress), std::string::npos) << quiet.out;
}

TEST(Interrupt, SigintKeepsPartialResultsMarkedAndEveryRequestAccountedFor) {
  bench::sim::SimServer server(quick_sim(5, 5));
  TempDir dir;
  const std::vector<std::string> args = {"--base-url",
                                         server.base_url(),
                                         "--quiet",
                                         "--num-prompts",
                                         "1000",
                                         "--concurrency",
                                         "64",
                                         "--output-len",
                                         "40",
                                         "--grace",
                                         "0.2",
                                         "--output-file",
                                         dir.file("r.json"),
                                         "--save-requests",
                                         dir.file("r.jsonl"),
                                         "--preconnect",
                                         "0",
                                         "--tokenizer",
                                         "words"};
  bench::testing::ProcessOptions options;
  // Interrupted mid-run: after two full waves of 64, long before the 1,000th request. The
  // server counts every request it answers, so no preconnect GETs: with their 64 the count
  // passed 128 as the first wave ended, and a loaded machine could signal before the second;
  // and words, so no /tokenize requests making the prompts ahead.
  options.signal_when = [&] { return server.requests_served() > 128; };
  const ProcessResult run = run_process(BENCH_BINARY, args, options);
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")));
  EXPECT_EQ(results["interrupted"], true);
  const int sent = results["sent"];
  EXPECT_GT(sent, 64) << run.err << results.dump();
  EXPECT_LT(sent, 1000) << run.err << results.dump();
  EXPECT_EQ(sent, results["completed"].get<int>() + results["failed"].get<int>() +
                      results["cancelled"].get<int>());
  EXPECT_NE(run.out.find("INTERRUPTED"), std::string::npos) << run.out;
  // One JSONL line for every request sent.
  const std::string lines = bench::testing::read_file(dir.file("r.jsonl"));
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), sent);
}

}  // namespace

namespace {

TEST(Sweep, ThreePointsGiveAThreeRowTableCsvAndJson) {
  bench::sim::SimServer server(quick_sim());
  const std::vector<std::string> sweep = {
      "--base-url", server.base_url(), "--quiet", "--concurrency", "1,2,4", "--num-prompts",
      "8",          "--output-len",    "4"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = sweep;
    args.insert(args.end(), more.begin(), more.end());
    return run_process(BENCH_BINARY, args);
  };
  const ProcessResult text = with({});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string table = text.out.substr(0, text.out.find("output / input / total"));
  int rows = 0;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "1" || first == "2" || first == "4") ++rows;
  }
  EXPECT_EQ(rows, 3) << table;

  const ProcessResult csv = with({"--output-format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 4) << csv.out;  // header + 3

  const ProcessResult as_json = with({"--output-format", "json"});
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  EXPECT_EQ(json::parse(as_json.out)["points"].size(), 3u);
}

TEST(Compare, FlagsATenPercentOutputThroughputDropAndPassesIdenticalFiles) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  ASSERT_EQ(run_process(BENCH_BINARY, small_run(server, {"--output-file", dir.file("base.json")}))
                .exit_code,
            0);
  json dropped = json::parse(bench::testing::read_file(dir.file("base.json")));
  dropped["output_throughput"] = dropped["output_throughput"].get<double>() * 0.9;
  {
    std::ofstream out(dir.file("new.json"));
    out << dropped.dump(2);
  }
  const ProcessResult drop = run_process(
      BENCH_BINARY,
      {"compare", dir.file("base.json"), dir.file("new.json"), "--fail-on-regression", "5%"});
  EXPECT_EQ(drop.exit_code, kExitGateFailed) << drop.err;
  const std::string output_row = drop.out.substr(drop.out.find("Output token throughput"));
  EXPECT_NE(output_row.substr(0, output_row.find('\n')).find("-10.00%"), std::string::npos)
      << drop.out;
  EXPECT_NE(output_row.substr(0, output_row.find('\n')).find("REGRESSION"), std::string::npos);
  EXPECT_EQ(run_process(BENCH_BINARY, {"compare", dir.file("base.json"), dir.file("base.json"),
                                       "--fail-on-regression", "5%"})
                .exit_code,
            0);
}

TEST(Report, ASavedSweepRendersWithTheSameFiguresAsTheRun) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  ASSERT_EQ(run_process(BENCH_BINARY, small_run(server, {"--concurrency", "1,4", "--output-file",
                                                         dir.file("sweep.json"), "--html",
                                                         dir.file("during.html")}))
                .exit_code,
            0);
  ASSERT_EQ(
      run_process(BENCH_BINARY, {"report", dir.file("sweep.json"), "-o", dir.file("after.html")})
          .exit_code,
      0);
  EXPECT_EQ(bench::testing::read_file(dir.file("during.html")),
            bench::testing::read_file(dir.file("after.html")));
}

}  // namespace
