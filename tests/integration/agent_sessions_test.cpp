// Agent sessions (--multi-turn --tool-result-len, issue 31) against the embedded server with its
// prefix cache, seen from its truth log: every turn after the first sends the model's tool call
// back with a tool message answering its id (the server refuses a history whose ids do not
// match, as OpenAI's API does), so each prompt is the previous one plus the call as streamed plus
// the result; the server's cache serves exactly the previous prompt's whole blocks; sessions end
// at the turn whose prompt reached --session-context; the tools' latency (--think-time) passes
// between a reply's end and the next turn's arrival. Misused flags are one line, nothing sent.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "session_turns.hpp"
#include "usage_errors.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr const char* kAgentTools =
    R"([{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}])";
constexpr std::int64_t kBlockTokens = 16;  // the simulator's cache block (vLLM's default)
constexpr std::int64_t kToolResultLen = 40;
constexpr std::int64_t kContextTarget = 300;
constexpr std::int64_t kThinkNs = 50'000'000;  // --think-time 0.05
constexpr std::int64_t kWireSlackNs =
    10'000'000;  // the simulator's stamp of a reply's end may trail its write

std::string tools_file(const TempDir& dir) {
  const std::string path = dir.file("tools.json");
  std::ofstream(path) << kAgentTools;
  return path;
}

struct AgentRun {
  ProcessResult process;
  json results;
  // The server's truth-log line of each turn, by session, in turn order; and bench's line.
  std::map<int, std::vector<json>> served;
  std::map<int, std::vector<json>> sent;
};

AgentRun run_agents(const TempDir& dir, const std::vector<std::string>& extra) {
  const std::string requests_path = dir.file("requests.jsonl");
  const std::string trace_path = dir.file("trace.jsonl");
  std::vector<std::string> args = {"--multi-turn",
                                   "--tools",
                                   tools_file(dir),
                                   "--tool-choice",
                                   "required",
                                   "--tool-result-len",
                                   std::to_string(kToolResultLen),
                                   "--think-time",
                                   "0.05",
                                   "--num-prompts",
                                   "3",
                                   "--concurrency",
                                   "3",
                                   "--input-len",
                                   "50",
                                   "--output-len",
                                   "8",
                                   "--ignore-eos",
                                   "--sim-profile",
                                   "tiny",
                                   "--sim-prefix-cache",
                                   "on",
                                   "--sim-time-scale",
                                   "10",
                                   "--sim-trace",
                                   trace_path,
                                   "--save-requests",
                                   requests_path,
                                   "--output-format",
                                   "json",
                                   "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  AgentRun run;
  run.process = run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  for (auto& [key, lines] : bench::testing::session_turns(requests_path, trace_path)) {
    EXPECT_EQ(static_cast<int>(run.sent[key.first].size()), key.second) << "a turn is missing";
    run.sent[key.first].push_back(std::move(lines.sent));
    run.served[key.first].push_back(std::move(lines.served));
  }
  return run;
}

std::int64_t count(const json& line, const char* key) { return line.at(key).get<std::int64_t>(); }

TEST(AgentSessions, EachTurnSendsTheCallBackWithItsResultAndTheCacheServesThePreviousPrompt) {
  const TempDir dir;
  const AgentRun run =
      run_agents(dir, {"--session-context", std::to_string(kContextTarget), "--seed", "3"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  ASSERT_EQ(run.served.size(), 3u);
  for (const auto& [session, turns] : run.served) {
    SCOPED_TRACE("session " + std::to_string(session));
    ASSERT_GE(turns.size(), 3u);
    for (std::size_t k = 0; k < turns.size(); ++k) {
      SCOPED_TRACE("turn " + std::to_string(k));
      const json& turn = turns[k];
      ASSERT_EQ(turn["outcome"], "ok") << turn;  // ids that did not match would be a 400
      EXPECT_EQ(turn["tool_call"], "read_file");
      EXPECT_EQ(run.sent.at(session)[k]["cached_prompt_tokens"], turn["cached_prompt_tokens"]);
      if (k == 0) {
        EXPECT_EQ(count(turn, "prompt_tokens"), 50);
        EXPECT_EQ(count(turn, "cached_prompt_tokens"), 0);
        continue;
      }
      const json& before = turns[k - 1];
      // The history grows by the call as streamed (its name, then one word per further token
      // and the opening {"text": of its arguments) and the tool's result.
      EXPECT_EQ(
          count(turn, "prompt_tokens"),
          count(before, "prompt_tokens") + count(before, "completion_tokens") + 1 + kToolResultLen);
      // The cache holds the previous prompt's whole blocks, and nothing after them.
      EXPECT_EQ(count(turn, "cached_prompt_tokens"),
                count(before, "prompt_tokens") / kBlockTokens * kBlockTokens);
      // The tool's latency passed between the reply's end and this turn's start, as bench timed
      // both (the scheduler's rule, exact but for the lines' rounding to microseconds)...
      const json& sent_before = run.sent.at(session)[k - 1];
      const double reply_end_ms =
          sent_before["start_ms"].get<double>() + sent_before["e2e_ms"].get<double>();
      EXPECT_GE(run.sent.at(session)[k]["start_ms"].get<double>() - reply_end_ms,
                static_cast<double>(kThinkNs) / 1e6 - 0.01);
      // ... and on the wire, between the reply's last byte and this turn's arrival at the
      // server, less the simulator's own lateness: it stamps the end after its write, and a
      // loaded machine can hold it between the two (1.4 ms seen beside a fresh-machine check).
      EXPECT_GE(count(turn, "arrival_ns") - count(before, "end_ns"), kThinkNs - kWireSlackNs);
    }
    // The context grew to the target: the last turn's prompt reached it, none before.
    EXPECT_GE(count(turns.back(), "prompt_tokens"), kContextTarget);
    EXPECT_LT(count(turns[turns.size() - 2], "prompt_tokens"), kContextTarget);
  }
  const json& multi_turn = run.results["multi_turn"];
  // Per turn, the results' cached and computed input are the sessions' means of what the server
  // served from its cache and prefilled.
  const json& by_turn = multi_turn["by_turn"];
  for (std::size_t k = 0; k < by_turn.size(); ++k) {
    double cached = 0, computed = 0, turns = 0;
    for (const auto& [session, served] : run.served) {
      if (k >= served.size()) continue;
      cached += static_cast<double>(count(served[k], "cached_prompt_tokens"));
      computed += static_cast<double>(count(served[k], "prompt_tokens") -
                                      count(served[k], "cached_prompt_tokens"));
      ++turns;
    }
    EXPECT_DOUBLE_EQ(by_turn[k]["mean_cached_input_tokens"].get<double>(), cached / turns) << k;
    EXPECT_DOUBLE_EQ(by_turn[k]["mean_computed_input_tokens"].get<double>(), computed / turns) << k;
  }
  EXPECT_FALSE(multi_turn["by_context"].empty());
  EXPECT_EQ(multi_turn["sessions_completed"], 3) << multi_turn;
  EXPECT_EQ(multi_turn["sessions_unfinished"], 0) << multi_turn;
}

TEST(AgentSessions, TheTurnCountEndsASessionWhenNoContextTargetIsGiven) {
  const TempDir dir;
  const AgentRun run = run_agents(dir, {"--turns", "4"});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  ASSERT_EQ(run.served.size(), 3u);
  for (const auto& [session, turns] : run.served) EXPECT_EQ(turns.size(), 4u) << session;
  EXPECT_EQ(run.results["multi_turn"]["sessions_completed"], 3);
  EXPECT_EQ(run.results["config"]["multi_turn"]["tool_result_len"], kToolResultLen);
}

TEST(AgentSessions, MisusedAgentFlagsAreOneLineAndNothingIsSent) {
  const TempDir dir;
  const std::string tools = tools_file(dir);
  const bench::testing::UsageErrorCases cases = {
      {{"--tool-result-len", "10"}, "--tool-result-len: only with --multi-turn"},
      {{"--session-context", "32k"}, "--session-context: only with --multi-turn"},
      {{"--multi-turn", "--turns", "3", "--tool-result-len", "10"},
       "--tool-result-len: agent sessions need --tools FILE"},
      {{"--multi-turn", "--tools", tools, "--tool-result-len", "10"},
       "agent sessions need --session-context N or --turns K"},
      {{"--multi-turn", "--turns", "3", "--session-context", "1000"},
       "--session-context: only with --tool-result-len"},
      {{"--multi-turn", "--tools", tools, "--tool-result-len", "10", "--session-context", "3x"},
       "--session-context: '3x' is not a number of tokens"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace
