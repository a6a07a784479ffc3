// Load shapes and run bounds, through the real binary against the embedded server: sweeps in
// one command (table, JSON points, CSV), --duration at a rate, --duration-hard, warm-up by
// time, goodput, the timeline and the steady-state window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::quick_sim;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

ProcessResult bench_against(const bench::sim::SimServer& server, std::vector<std::string> args) {
  std::vector<std::string> full = {"--base-url", server.base_url(), "--quiet"};
  full.insert(full.end(), args.begin(), args.end());
  return run_process(BENCH_BINARY, full);
}

json json_of(const ProcessResult& result) {
  json parsed = json::parse(result.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << "not JSON: " << result.out.substr(0, 400) << result.err;
  return parsed;
}

TEST(Sweep, RunsEveryConcurrencyInOrderAndPrintsOneTable) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      bench_against(server, {"--concurrency", "1,4,8", "--num-prompts", "16", "--output-len", "8"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream lines(run.out);
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(lines, line)) {
    if (line.starts_with("output / input / total")) break;  // the table ends; the chart follows
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "1" || first == "4" || first == "8") rows.push_back(first);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"1", "4", "8"})) << run.out;
  EXPECT_NE(run.out.find("output tok/s"), std::string::npos);  // the chart under the table
}

TEST(Sweep, JsonHoldsOnePointPerValueEachAFullRunObject) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run = bench_against(server, {"--concurrency", "2,6", "--num-prompts", "12",
                                                   "--output-len", "4", "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json sweep = json_of(run);
  EXPECT_EQ(sweep["kind"], "sweep");
  EXPECT_EQ(sweep["sweep"]["variable"], "concurrency");
  EXPECT_EQ(sweep["sweep"]["values"], json::array({2, 6}));
  ASSERT_EQ(sweep["points"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const json& point = sweep["points"][i];
    EXPECT_EQ(point["kind"], "run");
    EXPECT_EQ(point["max_concurrency"], sweep["sweep"]["values"][i]);
    EXPECT_EQ(point["completed"], 12);
    EXPECT_EQ(point["total_output_tokens"], 12 * 4);
  }
}

TEST(Sweep, OverRequestRatesIncludingInfWritesOneCsvRowPerPoint) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      bench_against(server, {"--request-rate", "50,inf", "--concurrency", "8", "--num-prompts",
                             "10", "--output-len", "4", "--output-format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream lines(run.out);
  std::string header, first, second, extra;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_FALSE(std::getline(lines, extra)) << "one header and one row per point";
  EXPECT_TRUE(header.starts_with("max_concurrency,request_rate,")) << header;
  EXPECT_TRUE(first.starts_with("8,50,")) << first;
  EXPECT_TRUE(second.starts_with("8,inf,")) << second;
  // The output column comes before input and total, as everywhere in bench.
  EXPECT_LT(header.find("output_throughput"), header.find("input_throughput"));
}

TEST(Duration, AtAFixedRateIssuesRateTimesDurationRequests) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      bench_against(server, {"--request-rate", "10", "--constant-rate", "--duration", "3s",
                             "--output-len", "4", "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json_of(run);
  EXPECT_NEAR(results["sent"].get<double>(), 30, 1);
  EXPECT_EQ(results["sent"], results["completed"]);
  // The duration spans the schedule, the last request due 2.9 s after the first, give or take
  // how late they went out and how long the last took: held against the run's own lag and
  // latency, not the wall clock's 3 s, which a busy host stretches.
  const double lag_s = results["max_schedule_lag_ms"].get<double>() / 1000;
  const double e2e_s = results["max_e2e_latency_ms"].get<double>() / 1000;
  EXPECT_GE(results["duration"].get<double>(), 2.9 - lag_s - 1e-3);
  EXPECT_LE(results["duration"].get<double>(), 2.9 + lag_s + e2e_s + 1e-3);
}

TEST(Duration, HardCancelsWhatIsInFlightAtTheDeadlineAndCountsIt) {
  bench::sim::SimServer server(quick_sim(5, 50));  // each request takes ~2.5 s
  const ProcessResult run =
      bench_against(server, {"--concurrency", "4", "--duration", "1s", "--duration-hard",
                             "--output-len", "50", "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;  // cancelled requests are not failures
  const json results = json_of(run);
  EXPECT_EQ(results["cancelled"], 4);
  EXPECT_EQ(results["completed"], 0);
  EXPECT_EQ(results["sent"].get<int>(), results["completed"].get<int>() +
                                            results["failed"].get<int>() +
                                            results["cancelled"].get<int>());
  // Each request would take ~2.5 s (a sleep never ends early): the deadline cut them all.
  EXPECT_LT(results["duration"].get<double>(), 2.5);
}

TEST(Duration, SoftLetsInFlightRequestsFinishAndCount) {
  bench::sim::SimServer server(quick_sim(5, 10));  // ~0.5 s per request
  TempDir dir;
  const ProcessResult run =
      bench_against(server, {"--concurrency", "4", "--duration", "1s", "--output-len", "50",
                             "--save-requests", dir.file("r.jsonl"), "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json_of(run);
  EXPECT_EQ(results["cancelled"], 0);
  EXPECT_EQ(results["completed"], results["sent"]);
  // A closed loop until the deadline, by the run's own records rather than the requests'
  // nominal 0.5 s (a busy host makes them longer): none starts after it, and a slot freed well
  // before it (100 ms) starts another, one freed after it none.
  const std::vector<json> records = bench::testing::read_jsonl(dir.file("r.jsonl"));
  ASSERT_EQ(records.size(), results["sent"].get<std::size_t>());
  double first_start_ms = 1e18;
  for (const json& record : records) {
    first_start_ms = std::min(first_start_ms, record["start_ms"].get<double>());
  }
  const double deadline_ms = first_start_ms + 1000;
  int freed_well_before = 0, freed_before = 0;
  for (const json& record : records) {
    const double start_ms = record["start_ms"].get<double>();
    EXPECT_LT(start_ms, deadline_ms + 1) << record;
    const double end_ms = start_ms + record["e2e_ms"].get<double>();
    freed_well_before += end_ms < deadline_ms - 100 ? 1 : 0;
    freed_before += end_ms < deadline_ms + 1 ? 1 : 0;
  }
  EXPECT_GE(results["sent"].get<int>(), 4 + freed_well_before);
  EXPECT_LE(results["sent"].get<int>(), 4 + freed_before);
}

TEST(Warmup, ByTimeIsSentButExcludedFromEveryFigure) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  const ProcessResult run =
      bench_against(server, {"--concurrency", "2", "--warmup-duration", "300ms", "--num-prompts",
                             "10", "--output-len", "4", "--save-requests", dir.file("r.jsonl"),
                             "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json_of(run);
  EXPECT_EQ(results["sent"], 10);
  // Both slots sent warm-up requests until 300 ms (how many a busy host allows varies).
  EXPECT_GE(results["warmup_requests"].get<int>(), 2);
  int measured = 0, warmup = 0;
  double last_warmup_start = 0, first_measured_start = 1e18;
  for (const json& record : bench::testing::read_jsonl(dir.file("r.jsonl"))) {
    if (record["warmup"].get<bool>()) {
      ++warmup;
      last_warmup_start = std::max(last_warmup_start, record["start_ms"].get<double>());
    } else {
      ++measured;
      first_measured_start = std::min(first_measured_start, record["start_ms"].get<double>());
    }
  }
  EXPECT_EQ(measured, 10);
  EXPECT_EQ(warmup, results["warmup_requests"]);
  EXPECT_LT(last_warmup_start, 300);
  EXPECT_GE(first_measured_start, 300);
}

TEST(Goodput, CountsRequestsMeetingTheSlos) {
  bench::sim::SimServer server(quick_sim(20, 1));
  const ProcessResult loose =
      bench_against(server, {"--num-prompts", "8", "--concurrency", "4", "--output-len", "4",
                             "--goodput", "ttft:5000", "--output-format", "json"});
  ASSERT_EQ(loose.exit_code, 0) << loose.err;
  const json all_good = json_of(loose);
  EXPECT_EQ(all_good["good_requests"], 8);
  EXPECT_NEAR(all_good["goodput"].get<double>(), all_good["request_throughput"].get<double>(),
              1e-9);
  const ProcessResult strict =
      bench_against(server, {"--num-prompts", "8", "--concurrency", "4", "--output-len", "4",
                             "--goodput", "ttft:1", "tpot:1000", "--output-format", "json"});
  ASSERT_EQ(strict.exit_code, 0) << strict.err;
  EXPECT_EQ(json_of(strict)["good_requests"], 0);  // the first token takes 20 ms
  const ProcessResult none =
      bench_against(server, {"--num-prompts", "2", "--output-len", "2", "--output-format", "json"});
  EXPECT_TRUE(json_of(none)["goodput"].is_null());
}

TEST(Timeline, BucketsAddUpToTheRunsTotalsAndTheSteadyStateIsFound) {
  bench::sim::SimServer server(quick_sim(5, 2));
  const ProcessResult run =
      bench_against(server, {"--concurrency", "8", "--num-prompts", "200", "--output-len", "20",
                             "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json_of(run);
  std::int64_t started = 0, output = 0, input = 0;
  for (const json& bucket : results["timeline"]["buckets"]) {
    started += bucket["started"].get<std::int64_t>();
    output += bucket["output_tokens"].get<std::int64_t>();
    input += bucket["input_tokens"].get<std::int64_t>();
  }
  EXPECT_EQ(started, 200);
  EXPECT_EQ(output, results["total_output_tokens"]);
  EXPECT_EQ(input, results["total_input_tokens"]);
  const json& steady = results["steady_state"];
  ASSERT_TRUE(steady.is_object()) << results["timeline"].dump();
  EXPECT_EQ(steady["target_in_flight"], 8);
  // The window's throughput against the server's modelled rate is a timing check:
  // steady_state_timing_test.cpp.
  EXPECT_GT(steady["output_throughput"].get<double>(), 0);
  ASSERT_FALSE(results["distributions"]["ttft_ms"].empty());
  EXPECT_EQ(results["distributions"]["ttft_ms"].back()[1], results["max_ttft_ms"]);
}

}  // namespace
