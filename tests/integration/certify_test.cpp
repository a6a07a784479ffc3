// `bench certify` through the real binary: a run's request log joined to the truth log of the
// server it ran against, every measured request joined and each figure's bound given in the
// certificate's keys; and what it cannot join refused in one line. The bound's size against the
// machine is checked under `timing` (certify_timing_test.cpp).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"

namespace certify_test {

using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// A light run against a server with its truth log; the request log's and the truth log's paths.
void light_run(const std::string& requests, const std::string& truth) {
  bench::sim::SimOptions options;
  options.trace_path = truth;
  const bench::sim::SimServer server(options);
  const auto run = run_process(
      BENCH_BINARY, {"--base-url", server.base_url(), "--concurrency", "2", "--num-prompts", "6",
                     "--input-len", "16", "--output-len", "6", "--ignore-eos", "--quiet",
                     "--no-answer-check", "--save-requests", requests, "--output-format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

TEST(Certify, EveryMeasuredRequestJoinsAndEachFigureHasItsBound) {
  TempDir dir;
  const std::string requests = dir.file("requests.jsonl");
  const std::string truth = dir.file("truth.jsonl");
  light_run(requests, truth);
  const auto certified =
      run_process(BENCH_BINARY, {"certify", requests, "--truth", truth, "--output-format", "json"});
  ASSERT_EQ(certified.exit_code, 0) << certified.err;
  const json c = json::parse(certified.out);
  EXPECT_EQ(c["requests_joined"], 6);
  EXPECT_EQ(c["requests_not_in_truth"], 0);
  for (const std::string figure : {"ttft", "itl", "tpot", "e2e"}) {
    SCOPED_TRACE(figure);
    const double p50 = c[figure + "_client_error_p50_ms"].get<double>();
    const double p99 = c[figure + "_client_error_p99_ms"].get<double>();
    const double max = c[figure + "_client_error_max_ms"].get<double>();
    EXPECT_GE(p50, 0.0);
    EXPECT_LE(p50, p99);
    EXPECT_LE(p99, max);
  }
  // The server's fixed profile writes the first token at 50 ms: the client cannot see it sooner.
  EXPECT_GE(c["ttft_p99_ms"].get<double>(), 49.9);
  EXPECT_EQ(c["ttft_client_error_count"], 6);
  EXPECT_EQ(c["itl_client_error_count"], 6 * 5);  // five gaps in each six-token answer

  const auto text = run_process(BENCH_BINARY, {"certify", requests, "--truth", truth});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("TTFT  p99 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(client error <= "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("not a network, TLS or a remote NIC"), std::string::npos) << text.out;
}

TEST(Certify, AGateOnTheBoundDecidesTheExitCode) {
  TempDir dir;
  const std::string requests = dir.file("requests.jsonl");
  const std::string truth = dir.file("truth.jsonl");
  light_run(requests, truth);
  // An error is a magnitude, never under 0 ms, so a limit of -1 fails; a light run's E2E error
  // is nowhere near a minute, so that limit passes.
  const auto failed = run_process(BENCH_BINARY, {"certify", requests, "--truth", truth,
                                                 "--fail-over", "ttft_client_error_max_ms=-1"});
  EXPECT_EQ(failed.exit_code, 4) << failed.err;
  EXPECT_NE(failed.err.find("ttft_client_error_max_ms"), std::string::npos) << failed.err;
  const auto passed = run_process(BENCH_BINARY, {"certify", requests, "--truth", truth,
                                                 "--fail-over", "e2e_client_error_p99_ms=60000"});
  EXPECT_EQ(passed.exit_code, 0) << passed.err;
  const auto unknown = run_process(
      BENCH_BINARY, {"certify", requests, "--truth", truth, "--fail-over", "p99_ttft_ms=1"});
  EXPECT_EQ(unknown.exit_code, bench::cli::kExitUsage) << unknown.err;
}

TEST(Certify, AnotherRunsTruthJoinsNothingAndIsRefused) {
  TempDir dir;
  const std::string requests = dir.file("requests.jsonl");
  light_run(requests, dir.file("truth.jsonl"));
  // A fresh server numbers its answers from the start again, so another run's truth log must
  // not be one the ids happen to match: an empty one stands for it.
  const std::string empty = dir.file("empty.jsonl");
  { std::ofstream(empty) << ""; }
  const auto refused = run_process(BENCH_BINARY, {"certify", requests, "--truth", empty});
  EXPECT_EQ(refused.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(refused.err.find("is in the truth log"), std::string::npos) << refused.err;
  const auto not_a_log = run_process(BENCH_BINARY, {"certify", requests, "--truth", requests});
  EXPECT_EQ(not_a_log.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(not_a_log.err.find("not a request line of a truth log"), std::string::npos)
      << not_a_log.err;
}

}  // namespace certify_test
