// `bench grade` through the real binary: bench itself graded (its error is its own small lag,
// not below the truth, since a client reads after the server writes), a deliberately late
// client graded (tests/integration/late_client.py sleeps 100 ms before reading: its TTFT error is
// that sleep, its chunk gaps read short), and what it cannot grade refused in one line.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "run_process.hpp"

namespace grade_test {

using bench::testing::run_process;
using nlohmann::json;

// A client reads a byte after the server hands it to the socket, so its figures are not below the
// truth's by more than the two sides' ends differ ([DONE] read, the last byte written) and
// which of the server's answers the truth takes (the last N to end): half a millisecond.
constexpr double kSlackMs = 0.5;

double error_of(const json& side, const std::string& key) {
  return side["figures"][key]["error"].get<double>();
}

TEST(Grade, BenchGradedAsAClientIsNotAheadOfTheTruthAndItsOwnRunMatchesTheLoad) {
  const auto graded = run_process(BENCH_BINARY, {"grade",
                                                 "--output-format",
                                                 "json",
                                                 "--",
                                                 BENCH_BINARY,
                                                 "--base-url",
                                                 "{url}",
                                                 "--concurrency",
                                                 "2",
                                                 "--num-prompts",
                                                 "6",
                                                 "--input-len",
                                                 "16",
                                                 "--output-len",
                                                 "6",
                                                 "--ignore-eos",
                                                 "--quiet",
                                                 "--no-answer-check",
                                                 "--output-file",
                                                 "{results}"});
  ASSERT_EQ(graded.exit_code, 0) << graded.err;
  const json grade = json::parse(graded.out);
  for (const char* side : {"client", "bench"}) {
    SCOPED_TRACE(side);
    EXPECT_EQ(grade[side]["tool"], "bench");
    EXPECT_EQ(grade[side]["completed"], 6);
    EXPECT_EQ(grade[side]["truth_compared"], 6);
    for (const std::string key : {"mean_ttft_ms", "p99_ttft_ms", "mean_e2e_latency_ms"}) {
      EXPECT_GE(error_of(grade[side], key), -kSlackMs) << key;
    }
    // The server's fixed profile: 50 ms to the first token, as its truth log says it wrote it.
    EXPECT_GE(grade[side]["figures"]["mean_ttft_ms"]["truth"].get<double>(), 49.9);
  }
}

TEST(Grade, ALateClientsTtftErrorIsItsSleepAndItsGapsReadShort) {
  if (run_process("/bin/sh", {"-c", "command -v python3"}).exit_code != 0) {
    GTEST_SKIP() << "no python3 on PATH";
  }
  const auto graded = run_process(
      BENCH_BINARY, {"grade", "--output-format", "json", "--", "python3",
                     std::string(BENCH_TEST_DATA_DIR) + "/../integration/late_client.py", "{url}",
                     "4", "100", "{results}"});
  ASSERT_EQ(graded.exit_code, 0) << graded.err;
  const json grade = json::parse(graded.out);
  EXPECT_EQ(grade["client"]["tool"], "vllm");
  // It reads the first chunk (written at 50 ms) only after its 100 ms sleep.
  EXPECT_GT(error_of(grade["client"], "mean_ttft_ms"), 30.0);
  // The chunks it found waiting read back to back: its mean gap is short of the server's.
  EXPECT_LT(error_of(grade["client"], "mean_icl_ms"), -2.0);
  // bench on the same load (one at a time, 4 requests, 8 tokens) is far closer.
  EXPECT_EQ(grade["bench"]["completed"], 4);
  EXPECT_LT(error_of(grade["bench"], "mean_ttft_ms"), error_of(grade["client"], "mean_ttft_ms"));
}

TEST(Grade, RefusesWhatItCannotGradeInOneLine) {
  const auto no_command = run_process(BENCH_BINARY, {"grade"});
  EXPECT_EQ(no_command.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(no_command.err.find("give the client's command after --"), std::string::npos)
      << no_command.err;
  const auto no_results = run_process(BENCH_BINARY, {"grade", "--", "true"});
  EXPECT_EQ(no_results.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(no_results.err.find("{results} in its command line, or --results PATH"),
            std::string::npos)
      << no_results.err;
  const auto nothing_written =
      run_process(BENCH_BINARY, {"grade", "--no-bench", "--", "true", "{results}"});
  EXPECT_EQ(nothing_written.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(nothing_written.err.find("the client's results ({results})"), std::string::npos)
      << nothing_written.err;
  const auto missing =
      run_process(BENCH_BINARY, {"grade", "--no-bench", "--", "/nonexistent/client", "{results}"});
  EXPECT_EQ(missing.exit_code, bench::cli::kExitRunFailed);
  EXPECT_NE(missing.err.find("cannot run the client: /nonexistent/client"), std::string::npos)
      << missing.err;
}

TEST(Certify, RefusesWhatIsNotOneStreamedRunOfBenchsOwn) {
  const auto peer = run_process(
      BENCH_BINARY,
      {"certify", std::string(BENCH_TEST_DATA_DIR) + "/peer_results/vllm_save_result.json"});
  EXPECT_EQ(peer.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(peer.err.find("a certificate is of one run of bench's own"), std::string::npos)
      << peer.err;
  bench::testing::TempDir dir;
  const auto whole = run_process(
      BENCH_BINARY, {"--no-stream", "--num-prompts", "2", "--input-len", "8", "--output-len", "4",
                     "--quiet", "--output-file", dir.file("whole.json")});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto none = run_process(BENCH_BINARY, {"certify", dir.file("whole.json")});
  EXPECT_EQ(none.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(none.err.find("timed no streamed answer"), std::string::npos) << none.err;
}

}  // namespace grade_test
