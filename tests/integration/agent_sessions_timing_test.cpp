// Agent sessions' think time (--think-time, the tools' latency) held from above: the truth log's
// arrival of each turn comes no later than the reply's end plus the think time plus a generous
// allowance for the client's loop and the loopback (the lower bound, that no turn comes early,
// is in agent_sessions_test.cpp). Real time: a timing test.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

TEST(AgentSessionsTiming, EachTurnArrivesWithinAGenerousBoundOfItsReplyPlusTheThinkTime) {
  constexpr std::int64_t kThinkNs = 80'000'000;   // --think-time 0.08
  constexpr std::int64_t kSlackNs = 250'000'000;  // a loaded CI host's scheduling, generously
  const TempDir dir;
  const std::string tools = dir.file("tools.json");
  std::ofstream(tools) << R"([{"type":"function","function":{"name":"f"}}])";
  const std::string requests_path = dir.file("requests.jsonl");
  const std::string trace_path = dir.file("trace.jsonl");
  const auto run =
      run_process(BENCH_BINARY, bench::testing::without_answer_check({"--multi-turn",
                                                                      "--tools",
                                                                      tools,
                                                                      "--tool-choice",
                                                                      "required",
                                                                      "--tool-result-len",
                                                                      "20",
                                                                      "--turns",
                                                                      "4",
                                                                      "--think-time",
                                                                      "0.08",
                                                                      "--num-prompts",
                                                                      "2",
                                                                      "--concurrency",
                                                                      "2",
                                                                      "--input-len",
                                                                      "20",
                                                                      "--output-len",
                                                                      "4",
                                                                      "--ignore-eos",
                                                                      "--sim-profile",
                                                                      "tiny",
                                                                      "--sim-time-scale",
                                                                      "10",
                                                                      "--sim-trace",
                                                                      trace_path,
                                                                      "--save-requests",
                                                                      requests_path,
                                                                      "--quiet"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<std::string, json> by_id;
  for (json& line : read_jsonl(trace_path)) by_id[line["id"].get<std::string>()] = line;
  std::map<std::pair<int, int>, json> served;
  for (const json& request : read_jsonl(requests_path)) {
    served[{request["session"].get<int>(), request["turn"].get<int>()}] =
        by_id.at(request["response_id"].get<std::string>());
  }
  ASSERT_EQ(served.size(), 8u);
  for (const auto& [key, turn] : served) {
    if (key.second == 0) continue;
    const json& before = served.at({key.first, key.second - 1});
    const std::int64_t gap_ns =
        turn["arrival_ns"].get<std::int64_t>() - before["end_ns"].get<std::int64_t>();
    EXPECT_GE(gap_ns, kThinkNs) << key.first << "/" << key.second;
    EXPECT_LT(gap_ns, kThinkNs + kSlackNs) << key.first << "/" << key.second;
  }
}

}  // namespace
