// bench's own timings against the simulator's truth log, request by request (joined by the
// response id bench records and the trace's id): on the tiny continuous-batching profile at
// concurrency 64, bench's TTFT and every inter-token gap agree with the server's send times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// Linear interpolation between closest ranks (numpy's default), as bench reports percentiles.
double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(rank));
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

TEST(SimFidelity, BenchsTtftAndEveryItlMatchTheTruthLogAtConcurrency64) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  {
    bench::sim::SimOptions options;
    options.profile = "tiny";
    options.trace_path = trace_path;
    bench::sim::SimServer server(options);
    // Warm-up requests open the 64 connections first, so measured TTFTs hold no connect time.
    const ProcessResult run = run_process(BENCH_BINARY, {"--base-url",
                                                         server.base_url(),
                                                         "--concurrency",
                                                         "64",
                                                         "--num-prompts",
                                                         "256",
                                                         "--warmup-requests",
                                                         "64",
                                                         "--input-len",
                                                         "64",
                                                         "--output-len",
                                                         "32",
                                                         "--ignore-eos",
                                                         "--endpoint",
                                                         "completions",
                                                         "--save-requests",
                                                         requests_path,
                                                         "--output-format",
                                                         "json",
                                                         "--quiet",
                                                         "--no-answer-check"});
    ASSERT_FALSE(run.timed_out);
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }  // the server is gone: its trace is complete

  std::map<std::string, json> truth;
  for (json& record : read_jsonl(trace_path)) {
    const std::string id = record["id"];
    truth[id] = std::move(record);
  }

  std::vector<double> ttft_error_ms;
  std::vector<double> itl_error_ms;
  int measured = 0;
  for (const json& request : read_jsonl(requests_path)) {
    if (request["warmup"].get<bool>()) continue;
    ++measured;
    ASSERT_EQ(request["status"], "ok");
    const auto found = truth.find(request["response_id"].get<std::string>());
    ASSERT_NE(found, truth.end()) << request["response_id"];
    const json& server = found->second;
    const json& arrivals = request["chunk_arrival_ms"];
    const json& sends = server["chunk_ns"];
    ASSERT_EQ(arrivals.size(), 32u);
    ASSERT_EQ(sends.size(), 32u);
    const double server_ttft_ms = static_cast<double>(server["first_chunk_ns"].get<std::int64_t>() -
                                                      server["arrival_ns"].get<std::int64_t>()) /
                                  1e6;
    ttft_error_ms.push_back(std::abs(request["ttft_ms"].get<double>() - server_ttft_ms));
    for (std::size_t i = 1; i < arrivals.size(); ++i) {
      const double bench_gap = arrivals[i].get<double>() - arrivals[i - 1].get<double>();
      const double server_gap =
          static_cast<double>(sends[i].get<std::int64_t>() - sends[i - 1].get<std::int64_t>()) /
          1e6;
      itl_error_ms.push_back(std::abs(bench_gap - server_gap));
    }
  }
  EXPECT_EQ(measured, 256);
  // bench's TTFT also holds the request's way in (~0.4 ms on a warm loopback connection here).
  EXPECT_LT(percentile(ttft_error_ms, 50), 1.0);
  EXPECT_LT(percentile(ttft_error_ms, 99), 5.0);
  EXPECT_LT(percentile(itl_error_ms, 50), 1.0);
  EXPECT_LT(percentile(itl_error_ms, 99), 5.0);
  ::testing::Test::RecordProperty("ttft_error_p50_ms",
                                  std::to_string(percentile(ttft_error_ms, 50)));
  ::testing::Test::RecordProperty("itl_error_p99_ms", std::to_string(percentile(itl_error_ms, 99)));
  std::printf(
      "TTFT |error| ms: p50 %.3f p99 %.3f max %.3f; ITL |error| ms: p50 %.3f p99 %.3f "
      "max %.3f over %zu gaps\n",
      percentile(ttft_error_ms, 50), percentile(ttft_error_ms, 99), percentile(ttft_error_ms, 100),
      percentile(itl_error_ms, 50), percentile(itl_error_ms, 99), percentile(itl_error_ms, 100),
      itl_error_ms.size());
}

}  // namespace
