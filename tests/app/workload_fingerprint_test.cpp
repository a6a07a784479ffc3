// The workload fingerprint: the same definition gives the same hash, whatever the seed; a
// change to what is sent or when gives another; a dataset file counts by its contents.
#include "bench/app/plan/workload_fingerprint.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"
#include "temp_file.hpp"

namespace {

using bench::app::LoadPoint;
using bench::testing::parse_run_options;
using bench::testing::TempFile;

const std::vector<LoadPoint> kOnePoint = {{8, 4.0}};

std::string fingerprint(const std::vector<std::string>& args,
                        const std::vector<LoadPoint>& points = kOnePoint) {
  return bench::app::workload_fingerprint(bench::app::workload_definition(parse_run_options(args)),
                                          points);
}

const std::vector<std::string> kBase = {"--input-len",   "512", "--output-len",   "64",
                                        "--num-prompts", "100", "--request-rate", "4"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(WorkloadFingerprint, TheSameOptionsGiveTheSameSixteenHexDigits) {
  const std::string once = fingerprint(kBase);
  EXPECT_EQ(once.size(), 16u);
  EXPECT_EQ(once.find_first_not_of("0123456789abcdef"), std::string::npos) << once;
  EXPECT_EQ(fingerprint(kBase), once);
}

TEST(WorkloadFingerprint, AnotherSeedDrawsTheSameWorkload) {
  EXPECT_EQ(fingerprint(with(kBase, {"--seed", "1"})), fingerprint(with(kBase, {"--seed", "2"})));
}

TEST(WorkloadFingerprint, WhatIsSentOrWhenChangesIt) {
  const std::string base = fingerprint(kBase);
  EXPECT_NE(fingerprint(with(kBase, {"--input-len", "513"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--output-len", "65"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--range-ratio", "0.5"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--sharegpt-context-len", "4096"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--endpoint", "completions"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--ignore-eos"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--extra-body", R"({"top_p":0.9})"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--burstiness", "0.5"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--warmup-requests", "4"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--num-prompts", "101"})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--reuse-prompts"})), base);
  EXPECT_NE(fingerprint(kBase, {{8, 5.0}}), base);   // another rate
  EXPECT_NE(fingerprint(kBase, {{16, 4.0}}), base);  // another concurrency
}

TEST(WorkloadFingerprint, SessionsAndTheirSettingsMakeAnotherWorkload) {
  const std::vector<std::string> closed = {"--input-len", "64", "--num-prompts", "10"};
  const std::vector<std::string> sessions = with(closed, {"--multi-turn", "--turns", "3"});
  EXPECT_NE(fingerprint(sessions), fingerprint(closed));
  EXPECT_NE(fingerprint(with(sessions, {"--turns", "4"})), fingerprint(sessions));
  EXPECT_NE(fingerprint(with(sessions, {"--think-time", "exp:1"})), fingerprint(sessions));
}

TEST(WorkloadFingerprint, WhatDoesNotShapeTheWorkloadLeavesItAlone) {
  const std::string base = fingerprint(kBase);
  EXPECT_EQ(fingerprint(with(kBase, {"--model", "other", "--request-timeout", "30"})), base);
  EXPECT_EQ(fingerprint(with(kBase, {"--flush-cache", "--quiet"})), base);
}

TEST(WorkloadFingerprint, ADatasetFileCountsByItsContentsNotItsName) {
  const std::string line = R"({"prompt": "Hello there", "max_tokens": 4})"
                           "\n";
  const TempFile first("a.jsonl", line);
  const TempFile renamed("b.jsonl", line);
  const TempFile edited("a.jsonl", line + line);
  auto of = [](const TempFile& file) {
    return fingerprint({"--dataset", "jsonl", "--dataset-path", file.path()});
  };
  EXPECT_EQ(of(first), of(renamed));
  EXPECT_NE(of(first), of(edited));
}

// A replayed trace is another workload for another file, format, speed, window, filter or count
// of rows (--num-prompts, or all the rows it replays: run_plan.hpp's settle_trace_requests).
TEST(WorkloadFingerprint, EachTraceSettingMakesAnotherWorkload) {
  const std::string dir = std::string(BENCH_TEST_DATA_DIR) + "/traces/";
  const std::vector<std::string> base = {"--dataset",      "trace",
                                         "--trace-format", "burstgpt",
                                         "--dataset-path", dir + "burstgpt_sample.csv"};
  const std::string plain = fingerprint(base, {{65536, bench::cli::kUnlimitedRate}});
  const auto other = [&](const std::vector<std::string>& more) {
    return fingerprint(with(base, more), {{65536, bench::cli::kUnlimitedRate}});
  };
  EXPECT_EQ(other({}), plain);
  EXPECT_NE(other({"--trace-speed", "2"}), plain);
  EXPECT_NE(other({"--trace-window", "0-10"}), plain);
  EXPECT_NE(other({"--trace-model", "GPT-4"}), plain);
  EXPECT_NE(other({"--trace-log-type", "API log"}), plain);
  EXPECT_NE(other({"--num-prompts", "5"}), plain);
  EXPECT_NE(fingerprint({"--dataset", "trace", "--trace-format", "azure", "--dataset-path",
                         dir + "azure_sample.csv"},
                        {{65536, bench::cli::kUnlimitedRate}}),
            plain);
}

}  // namespace

namespace {

// Tools and guided decoding change what the server generates and how fast (issue 31).
TEST(WorkloadFingerprint, ToolsToolChoiceAndResponseFormatMakeAnotherWorkload) {
  const TempFile tools(
      "tools.json",
      R"([{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}},)"
      R"({"type":"function","function":{"name":"search"}}])");
  const std::string base = fingerprint(kBase);
  const std::string with_tools = fingerprint(with(kBase, {"--tools", tools.path()}));
  EXPECT_NE(with_tools, base);
  const std::string required =
      fingerprint(with(kBase, {"--tools", tools.path(), "--tool-choice", "required"}));
  EXPECT_NE(required, with_tools);
  EXPECT_NE(fingerprint(with(kBase, {"--tools", tools.path(), "--tool-choice", "search"})),
            required);
  const std::string schema =
      R"({"type":"json_schema","json_schema":{"name":"a","schema":{"type":"object"}}})";
  EXPECT_NE(fingerprint(with(kBase, {"--response-format", schema})), base);
  EXPECT_NE(fingerprint(with(kBase, {"--response-format", schema})),
            fingerprint(with(kBase, {"--response-format", R"({"type":"json_object"})"})));
}

}  // namespace
