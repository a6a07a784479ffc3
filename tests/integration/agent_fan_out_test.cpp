// Agent sessions that fan out (--multi-turn --tool-result-len --fan-out K, issue 31) against the
// embedded server with its prefix cache, seen from its truth log: a session's first turn is sent
// once; its reply starts K branches (sub-agents) that each answer that reply's call with a
// result of their own, so their prompts share the first turn's and diverge at the results; each
// branch then grows its own history to its own end, and the cache serves each turn its own
// branch's previous prompt. Counts in the results and the request log say so.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "session_turns.hpp"
#include "usage_errors.hpp"

namespace agent_fan_out_test {

using bench::testing::TempDir;
using nlohmann::json;

constexpr std::int64_t kBlockTokens = 16;  // the simulator's cache block (vLLM's default)
constexpr std::int64_t kToolResultLen = 40;
constexpr int kSessions = 2;
constexpr int kBranches = 3;
constexpr int kTurns = 3;  // of each branch, its session's first turn included

std::int64_t count(const json& line, const char* key) { return line.at(key).get<std::int64_t>(); }

struct FanOutRun {
  bench::testing::ProcessResult process;
  json results;
  // (session, branch, turn) -> the truth log's line of its response.
  std::map<std::tuple<int, int, int>, json> served;
};

FanOutRun run_fan_out(const TempDir& dir) {
  const std::string tools = dir.file("tools.json");
  std::ofstream(tools)
      << R"([{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}])";
  const std::string requests = dir.file("requests.jsonl");
  const std::string trace = dir.file("trace.jsonl");
  const std::vector<std::string> args = {"--multi-turn",
                                         "--tools",
                                         tools,
                                         "--tool-choice",
                                         "required",
                                         "--tool-result-len",
                                         std::to_string(kToolResultLen),
                                         "--turns",
                                         std::to_string(kTurns),
                                         "--fan-out",
                                         std::to_string(kBranches),
                                         "--think-time",
                                         "0.02",
                                         "--num-prompts",
                                         std::to_string(kSessions),
                                         "--concurrency",
                                         "6",
                                         "--input-len",
                                         "50",
                                         "--output-len",
                                         "8",
                                         "--ignore-eos",
                                         "--seed",
                                         "5",
                                         "--sim-profile",
                                         "tiny",
                                         "--sim-prefix-cache",
                                         "on",
                                         "--sim-time-scale",
                                         "10",
                                         "--sim-trace",
                                         trace,
                                         "--save-requests",
                                         requests,
                                         "--output-format",
                                         "json"};
  FanOutRun run;
  run.process =
      bench::testing::run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  for (const auto& lines : bench::testing::joined_turns(requests, trace)) {
    const std::tuple<int, int, int> key{lines.sent["session"].get<int>(),
                                        lines.sent["branch"].get<int>(),
                                        lines.sent["turn"].get<int>()};
    EXPECT_TRUE(run.served.emplace(key, lines.served).second) << "a turn sent twice";
  }
  return run;
}

TEST(AgentFanOut, BranchesShareTheFirstTurnDivergeAtTheirResultsAndGrowApart) {
  const TempDir dir;
  const FanOutRun run = run_fan_out(dir);
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  EXPECT_NE(run.process.err.find("each fanning out to 3 branches after its first turn"),
            std::string::npos)
      << run.process.err;
  // The first turn once, then every branch's own turns.
  const int per_session = 1 + kBranches * (kTurns - 1);
  ASSERT_EQ(run.served.size(), static_cast<std::size_t>(kSessions * per_session));
  EXPECT_EQ(run.results["completed"], kSessions * per_session);
  for (int session = 0; session < kSessions; ++session) {
    SCOPED_TRACE("session " + std::to_string(session));
    const json& first = run.served.at({session, 0, 0});
    ASSERT_EQ(first["outcome"], "ok");
    std::set<std::string> first_results;
    for (int branch = 0; branch < kBranches; ++branch) {
      SCOPED_TRACE("branch " + std::to_string(branch));
      EXPECT_EQ(run.served.count({session, branch, 0}), branch == 0 ? 1u : 0u);
      const json& turn1 = run.served.at({session, branch, 1});
      ASSERT_EQ(turn1["outcome"], "ok") << turn1;  // its tool message answered the call's id
      // Every branch sends the first turn's prompt and reply with a result as long as the
      // others'...
      EXPECT_EQ(
          count(turn1, "prompt_tokens"),
          count(first, "prompt_tokens") + count(first, "completion_tokens") + 1 + kToolResultLen);
      // ... but its own: the prompts diverge there.
      EXPECT_TRUE(first_results.insert(turn1["prompt_hash"].get<std::string>()).second);
      // The cache serves at least the first turn's prompt, which every branch shares.
      EXPECT_GE(count(turn1, "cached_prompt_tokens"),
                count(first, "prompt_tokens") / kBlockTokens * kBlockTokens);
      // Then each branch grows its own history: the cache serves its own previous prompt.
      const json& turn2 = run.served.at({session, branch, 2});
      ASSERT_EQ(turn2["outcome"], "ok") << turn2;
      EXPECT_EQ(
          count(turn2, "prompt_tokens"),
          count(turn1, "prompt_tokens") + count(turn1, "completion_tokens") + 1 + kToolResultLen);
      EXPECT_EQ(count(turn2, "cached_prompt_tokens"),
                count(turn1, "prompt_tokens") / kBlockTokens * kBlockTokens);
    }
  }
  const json& multi_turn = run.results["multi_turn"];
  EXPECT_EQ(multi_turn["sessions_completed"], kSessions) << multi_turn;
  EXPECT_EQ(multi_turn["turns_completed"], kSessions * per_session) << multi_turn;
  EXPECT_EQ(multi_turn["by_turn"][1]["requests"], kSessions * kBranches) << multi_turn;
  EXPECT_EQ(run.results["config"]["multi_turn"]["fan_out"], kBranches);
}

TEST(AgentFanOut, AFanOutWithoutAgentSessionsIsOneLineAndNothingIsSent) {
  const bench::testing::UsageErrorCases cases = {
      {{"--fan-out", "3"}, "--fan-out: only with --multi-turn"},
      {{"--multi-turn", "--turns", "3", "--fan-out", "3"},
       "--fan-out: only with --tool-result-len"},
      {{"--multi-turn", "--tools", "t.json", "--tool-result-len", "5", "--turns", "3", "--fan-out",
        "1"},
       "--fan-out: 1 is not a number of branches from 2 to 64"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace agent_fan_out_test
