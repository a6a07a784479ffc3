// --dataset trace's flags: read into the dataset's options, and refused with the flags that
// would set what a trace brings itself (arrivals, lengths), before anything is sent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::cli::ParseResult;
using bench::testing::parse_args;

const std::string kTrace = std::string(BENCH_TEST_DATA_DIR) + "/traces/mooncake_sample.jsonl";

ParseResult parse_trace(std::vector<std::string> extra) {
  std::vector<std::string> args = {"bench", "--dataset", "trace", "--dataset-path", kTrace};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return bench::cli::parse_cli(static_cast<int>(argv.size()), argv.data());
}

TEST(TraceFlags, AreReadIntoTheDatasetOptions) {
  const ParseResult result =
      parse_trace({"--trace-format", "burstgpt", "--trace-speed", "2.5", "--trace-window", "60-120",
                   "--trace-model", "GPT-4", "--trace-log-type", "API log"});
  ASSERT_FALSE(result.exit_code) << result.message;
  const bench::workload::TraceOptions& trace = result.run.dataset.trace;
  EXPECT_EQ(trace.format, bench::workload::TraceFormat::burstgpt);
  EXPECT_EQ(trace.speed, 2.5);
  ASSERT_TRUE(trace.window);
  EXPECT_EQ(trace.window->start_s, 60);
  EXPECT_EQ(trace.window->end_s, 120);
  EXPECT_EQ(trace.model, "GPT-4");
  EXPECT_EQ(trace.log_type, "API log");
  // An open loop: --concurrency only caps it, and by default does not.
  EXPECT_EQ(result.run.concurrency, (std::vector<std::int64_t>{bench::cli::kOpenLoopDefaultCap}));
  EXPECT_FALSE(result.run.num_prompts_given);
}

TEST(TraceFlags, ConcurrencyIsAnOptionalCap) {
  const ParseResult result = parse_trace({"--trace-format", "mooncake", "--concurrency", "8"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.concurrency, (std::vector<std::int64_t>{8}));
}

TEST(TraceFlags, FlagsThatSetArrivalsOrLengthsAreRefused) {
  for (const std::vector<std::string>& flag :
       std::vector<std::vector<std::string>>{{"--request-rate", "5"},
                                             {"--burstiness", "0.5"},
                                             {"--constant-rate"},
                                             {"--ramp-up-strategy", "linear"},
                                             {"--duration", "10s"},
                                             {"--warmup-duration", "5s"},
                                             {"--input-len", "100"},
                                             {"--output-len", "100"},
                                             {"--reuse-prompts"}}) {
    std::vector<std::string> args = {"--trace-format", "mooncake"};
    args.insert(args.end(), flag.begin(), flag.end());
    const ParseResult result = parse_trace(args);
    ASSERT_TRUE(result.exit_code) << flag.front();
    EXPECT_EQ(*result.exit_code, bench::cli::kExitUsage);
    EXPECT_NE(result.message.find(flag.front() + ": not with --dataset trace"), std::string::npos)
        << result.message;
  }
}

TEST(TraceFlags, BadCombinationsAreUsageErrors) {
  const auto message = [](std::vector<std::string> args) {
    const ParseResult result = parse_trace(std::move(args));
    EXPECT_EQ(result.exit_code, bench::cli::kExitUsage);
    return result.message;
  };
  EXPECT_NE(message({}).find("--dataset trace: needs --trace-format"), std::string::npos);
  EXPECT_NE(message({"--trace-format", "azure", "--trace-model", "GPT-4"})
                .find("--trace-format azure has none"),
            std::string::npos);
  EXPECT_NE(message({"--trace-format", "azure", "--trace-window", "120-60"})
                .find("--trace-window: '120-60' is not START-END"),
            std::string::npos);
  EXPECT_NE(message({"--trace-format", "azure", "--trace-speed", "0"}).find("--trace-speed"),
            std::string::npos);
  // The trace's flags mean nothing to another dataset.
  std::vector<const char*> argv = {"bench", "--trace-speed", "2"};
  const ParseResult other = bench::cli::parse_cli(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(other.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(other.message.find("--trace-speed: only with --dataset trace"), std::string::npos)
      << other.message;
}

TEST(TraceFlags, AWekaTraceTakesADirectoryOfTracesAndASessionHeader) {
  const std::string dir = std::string(BENCH_TEST_DATA_DIR) + "/traces/weka";
  const ParseResult result =
      parse_args({"--dataset", "trace", "--trace-format", "weka", "--dataset-path", dir,
                  "--session-header", "X-Session-Id"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.dataset.path, dir);
  EXPECT_EQ(result.run.multi_turn.session_header, "X-Session-Id");
  // Another format reads one file.
  const ParseResult mooncake =
      parse_args({"--dataset", "trace", "--trace-format", "mooncake", "--dataset-path", dir});
  EXPECT_EQ(mooncake.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(mooncake.message.find("only --trace-format weka reads a directory"), std::string::npos)
      << mooncake.message;
  const ParseResult header = parse_args({"--dataset", "trace", "--trace-format", "weka",
                                         "--dataset-path", dir, "--session-header", "a b"});
  EXPECT_EQ(header.exit_code, bench::cli::kExitUsage);
}

TEST(TraceFlags, AnAgentTraceIsNotSharded) {
  // Its per-agent figures have no shard state for bench merge.
  const std::string weka = std::string(BENCH_TEST_DATA_DIR) + "/traces/weka_tree.json";
  std::vector<const char*> argv = {"bench",
                                   "--dataset",
                                   "trace",
                                   "--trace-format",
                                   "weka",
                                   "--dataset-path",
                                   weka.c_str(),
                                   "--shard",
                                   "0/2",
                                   "--seed",
                                   "1",
                                   "--base-url",
                                   "http://127.0.0.1:9",
                                   "--concurrency",
                                   "2"};
  const ParseResult result = bench::cli::parse_cli(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(result.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(result.message.find("--shard 0/2: not with --trace-format weka yet"), std::string::npos)
      << result.message;
}

}  // namespace
