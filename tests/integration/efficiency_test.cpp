// The efficiency figures through the real binary against the simulator: a sweep with --gpus 8
// and a price has, at every point, each kind's throughput over 8 and the cost of a million
// tokens of each kind; without --gpus they are unknown (null, "n/a"), never 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/metrics/percentile.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::quick_sim;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

std::vector<std::string> small_run(const bench::sim::SimServer& server,
                                   std::vector<std::string> more) {
  std::vector<std::string> args = {"--base-url", server.base_url(), "--quiet", "--num-prompts",
                                   "16",         "--concurrency",   "4",       "--output-len",
                                   "8",          "--input-len",     "32",      "--ignore-eos"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(Efficiency, ASweepOnEightGpusHasEachKindPerGpuAndItsCostAtEveryPoint) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run = run_process(
      BENCH_BINARY, small_run(server, {"--concurrency", "2,4", "--gpus", "8", "--gpu-hour-price",
                                       "2.5", "--output-format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json sweep = json::parse(run.out);
  ASSERT_EQ(sweep["points"].size(), 2u);
  const double usd_per_s = 8 * 2.5 / 3600;
  for (const json& point : sweep["points"]) {
    EXPECT_EQ(point["config"]["gpus"], 8);
    EXPECT_EQ(point["config"]["gpu_hour_price"], 2.5);
    const double output = point["output_throughput"].get<double>();
    const double input = point["input_throughput"].get<double>();
    const double total = point["total_throughput"].get<double>();
    ASSERT_GT(output, 0);
    EXPECT_DOUBLE_EQ(point["output_throughput_per_gpu"].get<double>(), output / 8);
    EXPECT_DOUBLE_EQ(point["input_throughput_per_gpu"].get<double>(), input / 8);
    EXPECT_DOUBLE_EQ(point["total_throughput_per_gpu"].get<double>(), total / 8);
    EXPECT_DOUBLE_EQ(point["usd_per_million_output_tokens"].get<double>(),
                     usd_per_s / output * 1e6);
    EXPECT_DOUBLE_EQ(point["usd_per_million_input_tokens"].get<double>(), usd_per_s / input * 1e6);
    EXPECT_DOUBLE_EQ(point["usd_per_million_total_tokens"].get<double>(), usd_per_s / total * 1e6);
  }
}

// Per user is the percentiles of each request's own rate, 1000 / its TPOT, as a script computes
// them from the request log: (E2E - TTFT) / (output tokens - 1) per request, numpy's percentile.
TEST(Efficiency, PerUserIsThePercentileOfEachRequestsRateInTheRequestLog) {
  TempDir dir;
  bench::sim::SimOptions sim = quick_sim();
  sim.jitter_ms = 3;  // requests of different speeds, so the ranks interpolate between rates
  bench::sim::SimServer server(sim);
  const ProcessResult run =
      run_process(BENCH_BINARY, small_run(server, {"--num-prompts", "10", "--output-format", "json",
                                                   "--save-requests", dir.file("requests.jsonl")}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json result = json::parse(run.out);
  std::vector<double> rates;
  std::ifstream log(dir.file("requests.jsonl"));
  for (std::string line; std::getline(log, line);) {
    const json request = json::parse(line);
    const double decode_ms = request["e2e_ms"].get<double>() - request["ttft_ms"].get<double>();
    rates.push_back(1000.0 / (decode_ms / (request["completion_tokens"].get<double>() - 1)));
  }
  ASSERT_EQ(rates.size(), 10u);
  std::sort(rates.begin(), rates.end());
  // The log's times are rounded to the microsecond, so each decode time (7 ms or more here) is
  // within 0.001 ms: the rates within 2e-4 of their size. (Where interpolating rates differs
  // from the reciprocal of an interpolated TPOT is run_summary_test's, on exact times.)
  const double median = bench::metrics::percentile_sorted(rates, 50);
  const double p10 = bench::metrics::percentile_sorted(rates, 10);
  EXPECT_NEAR(result["median_output_throughput_per_user"].get<double>(), median, median * 5e-4);
  EXPECT_NEAR(result["p10_output_throughput_per_user"].get<double>(), p10, p10 * 5e-4);
}

TEST(Efficiency, WithoutGpusThePerGpuFiguresAreUnknownNeverZero) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult json_run =
      run_process(BENCH_BINARY, small_run(server, {"--output-format", "json"}));
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const json results = json::parse(json_run.out);
  EXPECT_TRUE(results["config"]["gpus"].is_null());
  for (const char* key : {"output_throughput_per_gpu", "input_throughput_per_gpu",
                          "total_throughput_per_gpu", "usd_per_million_output_tokens"}) {
    EXPECT_TRUE(results[key].is_null()) << key << " = " << results[key].dump();
  }
  EXPECT_TRUE(results["median_output_throughput_per_user"].is_number());
  // No --server-metrics, so no energy counter was read: unknown, not 0.
  for (const char* key :
       {"gpu_energy_joules", "joules_per_output_token", "joules_per_total_token"}) {
    EXPECT_TRUE(results[key].is_null()) << key << " = " << results[key].dump();
  }
  const ProcessResult text = run_process(BENCH_BINARY, small_run(server, {}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Per GPU:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("n/a (give --gpus N"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("tok/s (output) per user"), std::string::npos) << text.out;
}

TEST(Efficiency, TheTextReportNamesTheKindOfEveryPerGpuLine) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      run_process(BENCH_BINARY, small_run(server, {"--gpus", "8", "--gpu-hour-price", "2.5"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("tok/s (output) per GPU"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("tok/s (input) per GPU"), std::string::npos);
  EXPECT_NE(run.out.find("tok/s (total = input + output) per GPU"), std::string::npos);
  EXPECT_NE(run.out.find("per million output tokens"), std::string::npos);
  EXPECT_NE(run.out.find("USD 2.5 per GPU-hour, 8 GPUs"), std::string::npos) << run.out;
}

TEST(Efficiency, TheCsvOfASweepHasThePerGpuColumns) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run = run_process(
      BENCH_BINARY,
      small_run(server, {"--concurrency", "2,4", "--gpus", "2", "--output-format", "csv"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string header = run.out.substr(0, run.out.find('\n'));
  for (const char* column :
       {"output_throughput_per_gpu", "input_throughput_per_gpu", "total_throughput_per_gpu",
        "median_output_throughput_per_user", "usd_per_million_output_tokens"}) {
    EXPECT_NE(header.find(column), std::string::npos) << column;
  }
}

TEST(Efficiency, APriceWithoutGpusIsRefusedBeforeAnyRequest) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult run =
      run_process(BENCH_BINARY, small_run(server, {"--gpu-hour-price", "2.5"}));
  EXPECT_EQ(run.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(run.err.find("--gpu-hour-price: needs --gpus"), std::string::npos) << run.err;
  EXPECT_EQ(server.requests_served(), 0u);
}

// The simulator's DCGM-shaped counters, scraped by --server-metrics around the point: with no
// idle draw the window's energy is its tokens' at the model's joules, to the counters' whole mJ
// (one per GPU), and per token it is that over bench's own token counts.
TEST(Efficiency, EnergyFromTheSimulatorsCountersIsItsModelledJoules) {
  auto options = quick_sim();
  options.power = {
      .gpus = 2, .idle_watts = 0, .joules_per_output_token = 0.5, .joules_per_input_token = 0.01};
  bench::sim::SimServer server(options);
  const ProcessResult run = run_process(
      BENCH_BINARY, small_run(server, {"--server-metrics", "--server-metrics-interval", "0",
                                       "--no-answer-check", "--output-format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  const double output = results["total_output_tokens"].get<double>();
  const double input = results["total_input_tokens"].get<double>();
  ASSERT_GT(output, 0);
  const double modelled = 0.5 * output + 0.01 * input;
  ASSERT_TRUE(results["gpu_energy_joules"].is_number()) << results.dump();
  const double joules = results["gpu_energy_joules"].get<double>();
  EXPECT_NEAR(joules, modelled, 2 * 0.001);
  EXPECT_DOUBLE_EQ(results["joules_per_output_token"].get<double>(), joules / output);
  EXPECT_DOUBLE_EQ(results["joules_per_total_token"].get<double>(), joules / (output + input));
}

// The gates name the new figures as any other; one bench cannot know fails saying it is unknown
// and why, whichever way it points.
TEST(Efficiency, GatesTakeTheNewFiguresAndAnUnknownOneFailsSayingSo) {
  bench::sim::SimServer server(quick_sim());
  const ProcessResult unknown = run_process(
      BENCH_BINARY, small_run(server, {"--fail-over", "usd_per_million_output_tokens=4"}));
  EXPECT_EQ(unknown.exit_code, bench::cli::kExitGateFailed) << unknown.err;
  EXPECT_NE(unknown.err.find("usd_per_million_output_tokens is unknown: it needs --gpus and "
                             "--gpu-hour-price"),
            std::string::npos)
      << unknown.err;
  const ProcessResult no_gpus =
      run_process(BENCH_BINARY, small_run(server, {"--fail-under", "output_throughput_per_gpu=1"}));
  EXPECT_EQ(no_gpus.exit_code, bench::cli::kExitGateFailed);
  EXPECT_NE(no_gpus.err.find("output_throughput_per_gpu is unknown: it needs --gpus"),
            std::string::npos)
      << no_gpus.err;
  const ProcessResult passing = run_process(
      BENCH_BINARY, small_run(server, {"--gpus", "8", "--gpu-hour-price", "2.5", "--fail-under",
                                       "output_throughput_per_gpu=0.001", "--fail-under",
                                       "median_output_throughput_per_user=0.001", "--fail-over",
                                       "usd_per_million_output_tokens=1000000"}));
  EXPECT_EQ(passing.exit_code, 0) << passing.err;
  const ProcessResult failing = run_process(
      BENCH_BINARY, small_run(server, {"--gpus", "8", "--gpu-hour-price", "2.5", "--fail-over",
                                       "usd_per_million_output_tokens=0.000001"}));
  EXPECT_EQ(failing.exit_code, bench::cli::kExitGateFailed);
  EXPECT_NE(failing.err.find("gate failed: usd_per_million_output_tokens = "), std::string::npos)
      << failing.err;
}

TEST(Efficiency, CompareShowsEachKindPerGpuAndTheCost) {
  bench::sim::SimServer server(quick_sim());
  TempDir dir;
  for (const char* name : {"base.json", "new.json"}) {
    ASSERT_EQ(run_process(BENCH_BINARY, small_run(server, {"--gpus", "8", "--gpu-hour-price", "2",
                                                           "--output-file", dir.file(name)}))
                  .exit_code,
              0);
  }
  const ProcessResult compared =
      run_process(BENCH_BINARY, {"compare", dir.file("base.json"), dir.file("new.json")});
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  for (const char* unit : {"output tok/s per GPU", "input tok/s per GPU", "total tok/s per GPU",
                           "output tok/s per user", "Cost per 1M output tokens"}) {
    EXPECT_NE(compared.out.find(unit), std::string::npos) << unit << "\n" << compared.out;
  }
  const ProcessResult gated =
      run_process(BENCH_BINARY, {"compare", dir.file("base.json"), dir.file("new.json"),
                                 "--fail-on-regression", "usd_per_million_output_tokens=1000%"});
  EXPECT_EQ(gated.exit_code, 0) << gated.err << gated.out;
}

}  // namespace
