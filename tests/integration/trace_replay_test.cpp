// Trace replay through the real binary against the embedded simulator, checked on both sides:
// bench's own records say each request was scheduled at its row's offset (scaled by
// --trace-speed), the simulator's truth log says which requests it was sent, with the rows'
// lengths and, for Mooncake, prefixes its prefix cache found shared exactly where the rows' hash
// ids are. A bad trace stops the run with file:line before anything is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

const std::string kTraces = std::string(BENCH_TEST_DATA_DIR) + "/traces/";

struct Replay {
  std::vector<json> requests;  // bench's --save-requests, by request index
  std::vector<json> served;    // the simulator's truth log, in arrival order
  std::string err;             // bench's notes and warnings
};

// One request at a time (so each is served before the next arrives), the simulator 100x fast.
Replay replay(const std::vector<std::string>& trace_args, const TempDir& dir) {
  std::vector<std::string> args = {"--dataset",          "trace",
                                   "--concurrency",      "1",
                                   "--sim-time-scale",   "100",
                                   "--sim-prefix-cache", "on",
                                   "--sim-trace",        dir.file("truth.jsonl"),
                                   "--save-requests",    dir.file("requests.jsonl"),
                                   "--per-chunk-usage",  "off",
                                   "--ignore-eos"};
  args.insert(args.end(), trace_args.begin(), trace_args.end());
  const ProcessResult run = run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  EXPECT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  Replay out{bench::testing::read_jsonl(dir.file("requests.jsonl")),
             bench::testing::read_jsonl(dir.file("truth.jsonl")), run.err};
  std::sort(out.requests.begin(), out.requests.end(),
            [](const json& a, const json& b) { return a["index"] < b["index"]; });
  std::sort(out.served.begin(), out.served.end(),
            [](const json& a, const json& b) { return a["arrival_ns"] < b["arrival_ns"]; });
  return out;
}

struct Row {
  double offset_ms;
  std::int64_t input;
  std::int64_t output;
  std::vector<std::int64_t> hash_ids;
};

// The Mooncake sample as the trace says, read here apart from bench.
std::vector<Row> mooncake_rows() {
  std::vector<Row> rows;
  std::ifstream in(kTraces + "mooncake_sample.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    const json row = json::parse(line);
    rows.push_back({row["timestamp"].get<double>(), row["input_length"], row["output_length"],
                    row["hash_ids"].get<std::vector<std::int64_t>>()});
  }
  return rows;
}

// Prompt words two Mooncake rows share: their equal leading blocks of 512 (the last one cut to
// what each row's length leaves), up to the first block that differs in id or length.
std::int64_t shared_words(const Row& a, const Row& b) {
  std::int64_t shared = 0;
  for (std::size_t i = 0; i < a.hash_ids.size() && i < b.hash_ids.size(); ++i) {
    if (a.hash_ids[i] != b.hash_ids[i]) break;
    const auto block = static_cast<std::int64_t>(i) * 512;
    const std::int64_t in_a = std::clamp<std::int64_t>(a.input - block, 0, 512);
    const std::int64_t in_b = std::clamp<std::int64_t>(b.input - block, 0, 512);
    shared += std::min(in_a, in_b);
    if (in_a != in_b) break;
  }
  return shared;
}

void expect_scheduled_at(const std::vector<json>& requests, const std::vector<double>& offsets_ms) {
  ASSERT_EQ(requests.size(), offsets_ms.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_NEAR(requests[i]["intended_start_ms"].get<double>(), offsets_ms[i], 1e-3) << i;
  }
}

TEST(TraceReplay, MooncakeRowsArriveWithExactlyTheirSharedPrefixes) {
  const TempDir dir;
  const Replay run = replay({"--trace-format", "mooncake", "--dataset-path",
                             kTraces + "mooncake_sample.jsonl", "--trace-speed", "10"},
                            dir);
  const std::vector<Row> rows = mooncake_rows();
  std::vector<double> offsets;
  for (const Row& row : rows) offsets.push_back(row.offset_ms / 10);
  expect_scheduled_at(run.requests, offsets);
  ASSERT_EQ(run.served.size(), rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    // The simulator's cache (16-token blocks, never the last prompt token) holds what any
    // earlier request shared with this one.
    std::int64_t shared = 0;
    for (std::size_t j = 0; j < k; ++j) shared = std::max(shared, shared_words(rows[k], rows[j]));
    const std::int64_t cached = std::min(shared / 16 * 16, (rows[k].input - 1) / 16 * 16);
    EXPECT_EQ(run.served[k]["prompt_tokens"], rows[k].input) << k;
    EXPECT_EQ(run.served[k]["completion_tokens"], rows[k].output) << k;
    EXPECT_EQ(run.served[k]["cached_prompt_tokens"], cached) << k << ": " << run.served[k];
  }
  // Sharing is the trace's purpose: no warning that the cache flattered the run.
  EXPECT_EQ(run.err.find("not meant to share prefixes"), std::string::npos) << run.err;
}

// Merged shards of a Mooncake replay are still a trace whose prompts share prefixes: the
// merged report neither warns that the cache flattered the run nor calls it a shared-prefix
// workload.
TEST(TraceReplay, MergedMooncakeShardsKeepTheTracesSharingOnPurpose) {
  const TempDir dir;
  bench::sim::SimOptions sim;
  sim.prefix_cache = true;
  sim.time_scale = 100;
  const bench::sim::SimServer server(sim);
  std::vector<std::string> shard_files;
  for (int shard = 0; shard < 2; ++shard) {
    const std::string file = dir.file("shard-" + std::to_string(shard) + ".json");
    const ProcessResult run = run_process(
        BENCH_BINARY, bench::testing::without_answer_check({"--base-url",
                                                            server.base_url(),
                                                            "--dataset",
                                                            "trace",
                                                            "--trace-format",
                                                            "mooncake",
                                                            "--dataset-path",
                                                            kTraces + "mooncake_sample.jsonl",
                                                            "--trace-speed",
                                                            "10",
                                                            "--concurrency",
                                                            "2",
                                                            "--per-chunk-usage",
                                                            "off",
                                                            "--ignore-eos",
                                                            "--quiet",
                                                            "--seed",
                                                            "5",
                                                            "--shard",
                                                            std::to_string(shard) + "/2",
                                                            "--output-file",
                                                            file}));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    shard_files.push_back(file);
  }
  std::vector<std::string> merge_args = {"merge", "-o", dir.file("merged.json")};
  merge_args.insert(merge_args.end(), shard_files.begin(), shard_files.end());
  const ProcessResult merge = run_process(BENCH_BINARY, merge_args);
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  std::ifstream in(dir.file("merged.json"));
  const json merged = json::parse(in);
  ASSERT_GT(merged["cached_input_share"].get<double>(), 0.1) << "the sample must share prefixes";
  EXPECT_TRUE(merged["prompts_share_prefixes"].get<bool>());
  for (const json& warning : merged["warnings"]) {  // (the shards ran one after the other)
    EXPECT_EQ(warning.get<std::string>().find("cache"), std::string::npos) << warning;
  }
  const std::string said = merge.out + merge.err;
  EXPECT_EQ(said.find("not meant to share prefixes"), std::string::npos) << said;
  EXPECT_EQ(said.find("shared-prefix workload"), std::string::npos) << said;
  EXPECT_NE(said.find("trace replay"), std::string::npos) << said;
}

TEST(TraceReplay, AzureRowsAreSentAtTheirOffsetsWithTheirLengths) {
  const TempDir dir;
  const Replay run = replay({"--trace-format", "azure", "--dataset-path",
                             kTraces + "azure_sample.csv", "--trace-speed", "4"},
                            dir);
  std::ifstream in(kTraces + "azure_sample.csv");
  std::string line;
  std::getline(in, line);  // the header
  std::vector<double> offsets;
  std::size_t row = 0;
  double first_s = -1;
  while (std::getline(in, line)) {
    // "2023-11-16 18:15:SS.fffffff": every row of the sample is within one minute.
    const double seconds = std::stod(line.substr(17, 10));
    if (first_s < 0) first_s = seconds;
    offsets.push_back((seconds - first_s) * 1000 / 4);
    const std::size_t comma = line.find(',');
    const std::size_t second = line.find(',', comma + 1);
    ASSERT_LT(row, run.served.size());
    EXPECT_EQ(run.served[row]["prompt_tokens"], std::stoll(line.substr(comma + 1))) << row;
    EXPECT_EQ(run.served[row]["completion_tokens"], std::stoll(line.substr(second + 1))) << row;
    EXPECT_EQ(run.served[row]["cached_prompt_tokens"], 0) << row;  // no two share a prefix
    ++row;
  }
  EXPECT_EQ(run.served.size(), 20u);
  expect_scheduled_at(run.requests, offsets);
}

TEST(TraceReplay, BurstGptFiltersTheRowsAndSkipsFailedOnes) {
  const TempDir dir;
  const Replay run =
      replay({"--trace-format", "burstgpt", "--dataset-path", kTraces + "burstgpt_sample.csv",
              "--trace-speed", "40", "--trace-model", "GPT-4", "--trace-log-type", "API log"},
             dir);
  // GPT-4 API log rows at 6, 7, 10, 14, 15, 16 s with 65, 305, 226, 385, 29, 161 tokens in.
  expect_scheduled_at(run.requests, {0, 25, 100, 200, 225, 250});
  const std::vector<std::int64_t> inputs = {65, 305, 226, 385, 29, 161};
  ASSERT_EQ(run.served.size(), inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(run.served[i]["prompt_tokens"], inputs[i]) << i;
  }
}

TEST(TraceReplay, WarmUpRowsComeFirstAndTheResultsRecordTheTrace) {
  const TempDir dir;
  const ProcessResult run = run_process(BENCH_BINARY, {"--dataset",
                                                       "trace",
                                                       "--trace-format",
                                                       "burstgpt",
                                                       "--dataset-path",
                                                       kTraces + "burstgpt_sample.csv",
                                                       "--trace-speed",
                                                       "100",
                                                       "--trace-window",
                                                       "5-20",
                                                       "--warmup-requests",
                                                       "2",
                                                       "--num-prompts",
                                                       "4",
                                                       "--sim-time-scale",
                                                       "100",
                                                       "--per-chunk-usage",
                                                       "off",
                                                       "--output-format",
                                                       "json",
                                                       "--quiet"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["completed"], 4);
  const json& config = results["config"];
  EXPECT_EQ(config["dataset"], "trace");
  EXPECT_EQ(config["trace_format"], "burstgpt");
  EXPECT_EQ(config["trace_speed"], 100);
  EXPECT_EQ(config["trace_window"], json::array({5, 20}));
  EXPECT_EQ(config["trace_rows"], 6);  // 2 warm-up + 4 measured
  EXPECT_EQ(config["num_prompts"], 4);
}

TEST(TraceReplay, ABadTraceStopsTheRunWithFileAndLineBeforeAnythingIsSent) {
  const struct {
    const char* file;
    const char* format;
    const char* where;
  } cases[] = {{"missing_column.csv", "azure", "missing_column.csv:1: no column"},
               {"unsorted.jsonl", "mooncake", "unsorted.jsonl:3: timestamp"},
               {"negative.csv", "burstgpt", "negative.csv:3: \"Timestamp\" is negative"},
               {"not_a_number.csv", "azure", "not_a_number.csv:4: \"ContextTokens\""},
               {"empty.csv", "azure", "empty.csv: empty"}};
  for (const auto& bad : cases) {
    const TempDir dir;
    const ProcessResult run = run_process(
        BENCH_BINARY, {"--dataset", "trace", "--trace-format", bad.format, "--dataset-path",
                       kTraces + bad.file, "--sim-trace", dir.file("truth.jsonl")});
    EXPECT_EQ(run.exit_code, 2) << bad.file;
    EXPECT_NE(run.err.find(bad.where), std::string::npos) << run.err;
    // One line: the error, nothing else on stderr.
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_TRUE(bench::testing::read_jsonl(dir.file("truth.jsonl")).empty()) << bad.file;
  }
}

}  // namespace
