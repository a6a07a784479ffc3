// Requests beyond --max-running-requests wait in the engine's queue: driven through bench's own
// embedded server (--sim-* flags, --sim-trace), 32 requests at once against 8 slots start in
// four waves, and both the truth log's queue wait and bench's TTFT rise wave by wave.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

TEST(SimQueue, TtftRisesWithQueueDepthBeyondMaxRunningRequests) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  const ProcessResult run = run_process(BENCH_BINARY, {"--sim-profile",
                                                       "tiny",
                                                       "--sim-max-running-requests",
                                                       "8",
                                                       "--sim-trace",
                                                       trace_path,
                                                       "--concurrency",
                                                       "32",
                                                       "--num-prompts",
                                                       "32",
                                                       "--input-len",
                                                       "32",
                                                       "--output-len",
                                                       "64",
                                                       "--ignore-eos",
                                                       "--per-chunk-usage",
                                                       "off",
                                                       "--save-requests",
                                                       requests_path,
                                                       "--output-format",
                                                       "json",
                                                       "--quiet",
                                                       "--no-answer-check"});
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  std::map<std::string, double> bench_ttft_ms;
  for (const json& request : read_jsonl(requests_path)) {
    bench_ttft_ms[request["response_id"].get<std::string>()] = request["ttft_ms"].get<double>();
  }
  std::vector<json> trace;
  for (json& record : read_jsonl(trace_path)) {
    if (bench_ttft_ms.contains(record["id"].get<std::string>())) trace.push_back(record);
  }
  ASSERT_EQ(trace.size(), 32u);
  // In the order the engine started them: eight at a time, each wave after the last finished.
  std::sort(trace.begin(), trace.end(), [](const json& a, const json& b) {
    return a["prefill_start_ns"].get<std::int64_t>() < b["prefill_start_ns"].get<std::int64_t>();
  });
  std::vector<double> queue_ms(4);
  std::vector<double> ttft_ms(4);
  for (int wave = 0; wave < 4; ++wave) {
    std::vector<double> queue;
    std::vector<double> ttft;
    for (int i = wave * 8; i < wave * 8 + 8; ++i) {
      queue.push_back(trace[i]["queue_ns"].get<double>() / 1e6);
      ttft.push_back(bench_ttft_ms[trace[i]["id"].get<std::string>()]);
      for (const json& batch : trace[i]["chunk_batch"]) EXPECT_LE(batch.get<int>(), 8);
    }
    queue_ms[wave] = mean(queue);
    ttft_ms[wave] = mean(ttft);
  }
  // A wave holds its slots for 64 steps of >= 1 ms, so each later wave waits >= 64 ms more;
  // bench sees the same rise in its TTFT.
  for (int wave = 1; wave < 4; ++wave) {
    EXPECT_GT(queue_ms[wave] - queue_ms[wave - 1], 50.0) << "wave " << wave;
    EXPECT_GT(ttft_ms[wave] - ttft_ms[wave - 1], 50.0) << "wave " << wave;
    EXPECT_NEAR(ttft_ms[wave] - ttft_ms[wave - 1], queue_ms[wave] - queue_ms[wave - 1], 10.0);
  }
  EXPECT_LT(queue_ms[0], 5.0);  // the first eight start at once
  std::printf(
      "mean queue wait per wave (ms): %.1f %.1f %.1f %.1f; bench TTFT: %.1f %.1f %.1f "
      "%.1f\n",
      queue_ms[0], queue_ms[1], queue_ms[2], queue_ms[3], ttft_ms[0], ttft_ms[1], ttft_ms[2],
      ttft_ms[3]);
}

}  // namespace
