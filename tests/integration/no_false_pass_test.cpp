// issue 28, "no false pass, no false regression", through the real binary: a gate on a figure
// of no values fails and says it is unknown; such a figure is never printed or written as 0
// (text, JSON, CSV); an open loop has no concurrency cap rather than 65536; `bench compare`
// and `bench report` read a --json-compat file by its own definitions, and compare takes a
// threshold per figure.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// The line of `text` holding `label`, or "" (so a missing line fails the find that follows).
std::string line_with(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

// The trial's command: every answer an HTTP 500, so nothing completes. Without the answer check,
// which would end the run before it (tests/chaos/startup_test.cpp): its figures are the case.
std::vector<std::string> nothing_completes(const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--no-answer-check",
                                   "--sim-fail-500-fraction",
                                   "1",
                                   "--num-prompts",
                                   "8",
                                   "--input-len",
                                   "16",
                                   "--output-len",
                                   "8"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(NoFalsePass, AGateOnALatencyOfNoValuesFailsSayingItIsUnknown) {
  TempDir dir;
  const std::string results = dir.file("x.json");
  const ProcessResult run = run_process(
      BENCH_BINARY, nothing_completes({"--fail-over", "p99_ttft_ms=500", "--fail-under",
                                       "median_e2e_latency_ms=0", "--output-file", results}));
  EXPECT_EQ(run.exit_code, bench::cli::kExitGateFailed) << run.err;
  EXPECT_NE(run.err.find("gate failed: p99_ttft_ms is unknown: no request completed, so it has "
                         "no values (--fail-over p99_ttft_ms=500 cannot be checked)"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("gate failed: median_e2e_latency_ms is unknown"), std::string::npos)
      << run.err;
  const json written = json::parse(bench::testing::read_file(results));
  EXPECT_EQ(written["completed"], 0);
  EXPECT_EQ(written["gates"]["passed"], false);
  EXPECT_EQ(written["gates"]["violations"].size(), 2u);
}

TEST(NoFalsePass, AFigureOfNoValuesIsNeverZeroInTextJsonOrCsv) {
  TempDir dir;
  const std::string results = dir.file("x.json");
  const ProcessResult text =
      run_process(BENCH_BINARY, nothing_completes({"--output-file", results}));
  ASSERT_EQ(text.exit_code, bench::cli::kExitRequestsFailed) << text.err;
  // What was asked is known from what was sent.
  EXPECT_NE(line_with(text.out, "Mean input length:").find("requested 16 tokens"),
            std::string::npos)
      << text.out;
  EXPECT_NE(line_with(text.out, "Mean output length:").find("requested 8 tokens (max_tokens)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(line_with(text.out, "TTFT from intended start (ms):").find("p50 n/a  p99 n/a"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("0.00  p99 0.00"), std::string::npos) << text.out;

  const json run = json::parse(bench::testing::read_file(results));
  for (const char* key :
       {"p99_ttft_ms", "median_ttft_ms", "mean_itl_ms", "p99_tpot_ms", "p99_e2e_latency_ms",
        "p99_ttft_from_intended_ms", "mean_prompt_tokens", "mean_completion_tokens"}) {
    EXPECT_TRUE(run[key].is_null()) << key << " = " << run[key];
  }
  EXPECT_EQ(run["mean_requested_input_len"], 16.0);
  EXPECT_EQ(run["mean_requested_output_len"], 8.0);
  EXPECT_EQ(run["expected_prompt_tokens"], 16.0);

  const ProcessResult csv =
      run_process(BENCH_BINARY, nothing_completes({"--quiet", "--output-format", "csv"}));
  const std::string header = csv.out.substr(0, csv.out.find('\n'));
  const std::string row = csv.out.substr(header.size() + 1);
  std::vector<std::string> names, cells;
  for (auto [from, into] : {std::pair{&header, &names}, std::pair{&row, &cells}}) {
    std::size_t start = 0;
    for (std::size_t comma; (comma = from->find_first_of(",\n", start)) != std::string::npos;
         start = comma + 1) {
      into->push_back(from->substr(start, comma - start));
    }
    if (start < from->size()) into->push_back(from->substr(start));
  }
  ASSERT_GE(cells.size(), names.size()) << csv.out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "p99_ttft_ms" || names[i] == "median_e2e_latency_ms") {
      EXPECT_EQ(cells[i], "") << names[i];
    }
  }
}

TEST(NoFalsePass, AnOpenLoopHasNoConcurrencyCapRatherThan65536) {
  bench::sim::SimServer server(bench::testing::quick_sim());
  TempDir dir;
  const std::string results = dir.file("open.json");
  const ProcessResult run = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--request-rate", "200", "--num-prompts", "8",
                     "--output-len", "4", "--output-file", results});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(line_with(run.out, "Max concurrency:").find("none (open loop: no cap)"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("65536"), std::string::npos) << run.out;
  const json written = json::parse(bench::testing::read_file(results));
  ASSERT_TRUE(written.contains("max_concurrency"));
  EXPECT_TRUE(written["max_concurrency"].is_null());
  // A cap given is a cap, open loop or not.
  const ProcessResult capped =
      run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--request-rate", "200",
                                 "--concurrency", "3", "--num-prompts", "8", "--output-len", "4",
                                 "--quiet", "--output-format", "json"});
  ASSERT_EQ(capped.exit_code, 0) << capped.err;
  EXPECT_EQ(json::parse(capped.out)["max_concurrency"], 3);
}

// The trial: the same run written natively and with --json-compat sglang, chunks of 4 tokens.
// compare read the compat file's per-chunk ITL as per token: "+300.04%", exit 4.
TEST(NoFalseRegression, CompareReadsAJsonCompatFileByItsOwnDefinitions) {
  TempDir dir;
  const std::vector<std::string> workload = {"--sim-tokens-per-chunk",
                                             "4",
                                             "--num-prompts",
                                             "16",
                                             "--concurrency",
                                             "4",
                                             "--output-len",
                                             "32",
                                             "--ignore-eos",
                                             "--seed",
                                             "7",
                                             "--quiet"};
  std::vector<std::string> native = workload;
  native.insert(native.end(), {"--output-file", dir.file("n1.json")});
  std::vector<std::string> compat = workload;
  compat.insert(compat.end(), {"--json-compat", "sglang", "--output-file", dir.file("n2.json")});
  ASSERT_EQ(run_process(BENCH_BINARY, native).exit_code, 0);
  ASSERT_EQ(run_process(BENCH_BINARY, compat).exit_code, 0);
  // The files differ as the trial's did: the compat file's itl is the 4-token chunk's gap.
  const json n1 = json::parse(bench::testing::read_file(dir.file("n1.json")));
  const json n2 = json::parse(bench::testing::read_file(dir.file("n2.json")));
  ASSERT_GT(n2["median_itl_ms"].get<double>(), 2.5 * n1["median_itl_ms"].get<double>());

  const ProcessResult compared =
      run_process(BENCH_BINARY,
                  {"compare", dir.file("n1.json"), dir.file("n2.json"), "--output-format", "json"});
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  const json comparison = json::parse(compared.out);
  for (const json& row : comparison["points"][0]["rows"]) {
    if (row["metric"] != "median_itl_ms" && row["metric"] != "p99_itl_ms") continue;
    // Two runs of the embedded server differ by noise, never by the factor of 4 per chunk.
    const double change = row["change_pct"].get<double>();
    EXPECT_LT(std::abs(change), 50.0) << row.dump();
  }
  const ProcessResult failing = run_process(
      BENCH_BINARY,
      {"compare", dir.file("n1.json"), dir.file("n2.json"), "--fail-on-regression", "50%"});
  EXPECT_EQ(failing.exit_code, 0) << failing.out;

  // bench report labelled the compat file's per-chunk ITL "per token": its ITL row holds the
  // per-token figures, its ICL row the per-chunk ones the file calls itl.
  const ProcessResult report =
      run_process(BENCH_BINARY, {"report", dir.file("n2.json"), "-o", dir.file("n2.html")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string html = bench::testing::read_file(dir.file("n2.html"));
  const auto first_cell = [&html](const std::string& row) {
    const std::string cell = "<td class=\"num\">";
    const std::size_t at = html.find(cell, html.find(row));
    return at == std::string::npos ? std::string() : html.substr(at + cell.size(), 20);
  };
  const std::string itl_row = "<tr><th scope=\"row\">ITL<span class=\"sub\">";
  const std::string icl_row = "<tr><th scope=\"row\">ICL<span class=\"sub\">";
  EXPECT_EQ(first_cell(itl_row).rfind(
                fmt::format("{:.2f}<", n2["mean_itl_per_token_ms"].get<double>()), 0),
            0u)
      << first_cell(itl_row);
  EXPECT_EQ(first_cell(icl_row).rfind(fmt::format("{:.2f}<", n2["mean_itl_ms"].get<double>()), 0),
            0u)
      << first_cell(icl_row);
}

TEST(NoFalseRegression, CompareTakesAThresholdPerFigureAndRefusesAnUnknownOne) {
  TempDir dir;
  const std::vector<std::string> args = {"--num-prompts",   "8", "--concurrency", "2",
                                         "--output-len",    "4", "--quiet",       "--output-file",
                                         dir.file("a.json")};
  ASSERT_EQ(run_process(BENCH_BINARY, args).exit_code, 0);
  const ProcessResult per_figure = run_process(
      BENCH_BINARY, {"compare", dir.file("a.json"), dir.file("a.json"), "--fail-on-regression",
                     "output_throughput=2%,p99_ttft_ms=10%", "--output-format", "json"});
  ASSERT_EQ(per_figure.exit_code, 0) << per_figure.err;
  const json thresholds = json::parse(per_figure.out)["thresholds"];
  EXPECT_DOUBLE_EQ(thresholds["output_throughput"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(thresholds["p99_ttft_ms"].get<double>(), 0.1);
  const ProcessResult unknown =
      run_process(BENCH_BINARY, {"compare", dir.file("a.json"), dir.file("a.json"),
                                 "--fail-on-regression", "p42_ttft_ms=2%"});
  EXPECT_EQ(unknown.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(unknown.err.find("'p42_ttft_ms' is not a figure bench compare judges"),
            std::string::npos)
      << unknown.err;
}

}  // namespace
