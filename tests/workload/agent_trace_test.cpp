// Recorded agent sessions (--trace-format weka): the reader on real Claude Code traces and on a
// made-up tree, and the text each request is sent as: exact lengths, the shared prefix the
// blocks say, turns that never differ inside it, and the cache ceiling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/util/words.hpp"
#include "bench/workload/agent_history.hpp"
#include "bench/workload/agent_trace.hpp"
#include "bench/workload/dataset_error.hpp"
#include "data_dirs.hpp"
#include "temp_file.hpp"

namespace agent_trace_test {

using bench::testing::kTracesDir;
using bench::workload::AgentPrompt;
using bench::workload::AgentReplayText;
using bench::workload::AgentScript;
using bench::workload::AgentTrace;
using bench::workload::BlockCeiling;
using bench::workload::DatasetError;
using bench::workload::TurnStart;

const std::string kWekaDir = kTracesDir + "weka/";

AgentTrace read_single(const std::string& path) {
  const std::vector<AgentTrace> traces = bench::workload::read_agent_traces(path);
  EXPECT_EQ(traces.size(), 1u);
  return traces.front();
}

const AgentScript& script_of(const AgentTrace& trace, std::size_t agent) {
  return agent == 0 ? trace.root : trace.children[agent - 1].script;
}

AgentPrompt prompt_of(const AgentTrace& trace, std::size_t agent, std::size_t request,
                      std::uint64_t replay = 0) {
  const auto turns = bench::workload::agent_turns(script_of(trace, agent), trace.block_size);
  return bench::workload::agent_prompt(trace, agent, request, turns[request],
                                       AgentReplayText{7, 0, replay, {}});
}

TEST(AgentTrace, ReadsARealSessionWithItsSubagentsSpawnedAfterTheirParentAndJoinedByTheNext) {
  const AgentTrace trace = read_single(kWekaDir + "trace_0291.json");
  EXPECT_EQ(trace.id, "trace_0291");
  EXPECT_EQ(trace.block_size, 64);
  EXPECT_EQ(trace.root.head_tokens, 12166 + 3318);
  ASSERT_EQ(trace.root.requests.size(), 20u);
  ASSERT_EQ(trace.children.size(), 2u);
  EXPECT_EQ(trace.requests(), 32u);
  EXPECT_EQ(trace.largest_group(), 2u);
  for (const auto& child : trace.children) {
    EXPECT_EQ(child.parent, 15u);  // the root request before the markers
    EXPECT_EQ(child.join, 16u);    // and the one after them
    EXPECT_EQ(child.script.head_tokens, 7401 + 1465);
  }
  // Marker t is the subagent's end: t - duration_ms is its spawn, 0.7 s after the parent's reply
  // (t 1085 + api_time 15.64).
  EXPECT_NEAR(trace.children[0].spawn_gap_s, 1148.013 - 46.656 - 1100.64, 1e-9);
  EXPECT_NEAR(trace.children[1].spawn_gap_s, 1180.553 - 79.184 - 1100.64, 1e-9);
  // The join waits for the later of them to end (t 1180.553) and then 28.4 s more.
  EXPECT_NEAR(trace.root.requests[16].after_children_s, 1209 - 1180.553, 1e-9);
  EXPECT_FALSE(trace.root.requests[0].streamed);  // "n"
  EXPECT_TRUE(trace.root.requests[1].answers_tool);
  EXPECT_EQ(trace.root.requests[0].input_len, 17869);
  EXPECT_EQ(trace.root.requests[0].hash_ids.size(), 17869u / 64);
}

TEST(AgentTrace, ReadsADirectoryInNameOrderAndTellsStreamedFromNot) {
  const std::vector<AgentTrace> traces = bench::workload::read_agent_traces(kWekaDir);
  ASSERT_EQ(traces.size(), 4u);
  EXPECT_EQ(traces[0].id, "trace_0057");
  EXPECT_EQ(traces[3].id, "trace_0504");
  const AgentTrace& mixed = traces[3];
  ASSERT_EQ(mixed.root.requests.size(), 3u);
  EXPECT_FALSE(mixed.root.requests[0].streamed);
  EXPECT_TRUE(mixed.root.requests[2].streamed);
  EXPECT_DOUBLE_EQ(mixed.root.requests[2].think_time_s, 3058);
}

TEST(AgentTrace, DropsASubagentWithNoParentAndRunsOneWithNoJoinInTheBackground) {
  const AgentTrace trace = read_single(kTracesDir + "weka_tree.json");
  EXPECT_EQ(trace.children_dropped, 1u);  // the marker before any root request
  ASSERT_EQ(trace.children.size(), 3u);
  EXPECT_EQ(trace.children[0].script.agent_id, "agent_a");
  EXPECT_EQ(trace.children[0].parent, 0u);
  EXPECT_EQ(trace.children[1].join, 1u);
  EXPECT_NEAR(trace.children[0].spawn_gap_s, 0.5, 1e-12);  // spawn 1.5, parent ended at 1.0
  EXPECT_EQ(trace.children[2].parent, 2u);
  EXPECT_FALSE(trace.children[2].join.has_value());
  EXPECT_NEAR(trace.root.requests[1].after_children_s, 2.0, 1e-12);  // t 7, last child ended 5
}

void expect_refused(const std::string& json, const std::string& says) {
  const bench::testing::TempFile file("bad.json", json);
  const std::string& path = file.path();
  try {
    bench::workload::read_agent_traces(path);
    ADD_FAILURE() << "accepted: " << json;
  } catch (const DatasetError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(says), std::string::npos) << error.what();
  }
}

TEST(AgentTrace, RefusesWhatIsNotTheFormatNamingFileAndRequest) {
  expect_refused(R"({"block_size": 8, "requests": [{"type": "s", "in": 17, "out": 1,
                   "hash_ids": [1]}]})",
                 "requests[0]: 1 hash ids for \"in\": 17, where blocks of 8 make 2");
  expect_refused(R"({"requests": [{"type": "x", "in": 1, "out": 1, "hash_ids": []}]})",
                 "requests[0]: \"type\" is \"x\"");
  expect_refused(R"({"block_size": 8, "requests": [{"type": "s", "in": 8, "out": 1,
                   "hash_ids": [1]}, {"type": "subagent", "requests": [{"type": "subagent",
                   "requests": []}]}]})",
                 "requests[1].requests[0]: a subagent inside a subagent");
  expect_refused(R"({"block_size": 8, "requests": [{"type": "s", "out": 1, "hash_ids": []}]})",
                 "requests[0]: no \"in\"");
  expect_refused(R"([1, 2])", "not a JSON object");
  expect_refused(R"({"requests": []})", "no request to send");
}

TEST(AgentHistory, EveryRequestOfTheRealTracesIsItsRecordedLengthInWords) {
  for (const AgentTrace& trace : bench::workload::read_agent_traces(kWekaDir)) {
    for (std::size_t agent = 0; agent <= trace.children.size(); ++agent) {
      const AgentScript& script = script_of(trace, agent);
      for (std::size_t k = 0; k < script.requests.size(); ++k) {
        const AgentPrompt prompt = prompt_of(trace, agent, k);
        EXPECT_EQ(prompt.history.words(), script.requests[k].input_len)
            << trace.id << " agent " << agent << " request " << k;
        EXPECT_EQ(bench::util::count_words(prompt.history.transcript()),
                  script.requests[k].input_len);
      }
    }
  }
}

TEST(AgentHistory, AnExtendingRequestResendsTheTurnsBeforeItsNewBlocksAndAddsTheReplyAndTheNext) {
  const AgentTrace trace = read_single(kTracesDir + "weka_tree.json");
  const auto turns = bench::workload::agent_turns(trace.root, trace.block_size);
  using Role = TurnStart::Role;
  // Head 16 tokens (2 blocks): a system turn, then the user's from block 2.
  EXPECT_EQ(turns[0], (std::vector<TurnStart>{{0, Role::system}, {2, Role::user}}));
  // Request 1 begins with all of request 0's 5 blocks: request 0 ended at token 40 (block 5),
  // its 6-token reply ran to 46 (the next turn at block 6).
  EXPECT_EQ(turns[1],
            (std::vector<TurnStart>{
                {0, Role::system}, {2, Role::user}, {5, Role::assistant}, {6, Role::user}}));
  // Request 2 shares 7 blocks with request 1, so keeps all of its turns, and adds its reply at
  // block 7 (56 tokens) and the user's at ceil(61 / 8) = 8, its tail.
  EXPECT_EQ(turns[2], (std::vector<TurnStart>{{0, Role::system},
                                              {2, Role::user},
                                              {5, Role::assistant},
                                              {6, Role::user},
                                              {7, Role::assistant},
                                              {8, Role::user}}));
}

// The text of a request's first `blocks` blocks, from its completions transcript.
std::vector<std::string> first_words(const AgentPrompt& prompt, std::size_t words) {
  std::vector<std::string> out;
  const std::string text = prompt.history.transcript();
  std::size_t at = 0;
  while (out.size() < words) {
    at = text.find_first_not_of(" \n", at);
    if (at == std::string::npos) break;
    const std::size_t end = text.find_first_of(" \n", at);
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

TEST(AgentHistory, ConsecutiveRequestsShareExactlyTheirCommonBlocksAndTwoReplaysOnlyTheHead) {
  const AgentTrace trace = read_single(kWekaDir + "trace_0291.json");
  const AgentPrompt first = prompt_of(trace, 0, 0);
  const AgentPrompt second = prompt_of(trace, 0, 1);
  // Request 1 shares request 0's 279 blocks: the same 279 x 64 words, and differs right after.
  const std::size_t shared = 279 * 64;
  const auto a = first_words(first, shared + 1);
  const auto b = first_words(second, shared + 1);
  EXPECT_TRUE(std::equal(a.begin(), a.begin() + shared, b.begin()));
  EXPECT_NE(a[shared], b[shared]);
  // Another replay of the same trace shares the head's whole blocks (15484 / 64 = 241) only.
  const AgentPrompt other = prompt_of(trace, 0, 0, 1);
  const auto c = first_words(other, 241 * 64 + 1);
  EXPECT_TRUE(std::equal(c.begin(), c.begin() + 241 * 64, a.begin()));
  EXPECT_NE(c[241 * 64], a[241 * 64]);
}

TEST(AgentHistory, TheCeilingIsTheBlocksSentBeforeInTheReplayAndAnyReplaysHead) {
  const AgentTrace trace = read_single(kWekaDir + "trace_0291.json");
  BlockCeiling ceiling;
  BlockCeiling::Prefixes first_replay;
  BlockCeiling::Prefixes second_replay;
  EXPECT_EQ(ceiling.admit(prompt_of(trace, 0, 0).block_keys, 64, first_replay), 0);
  EXPECT_EQ(ceiling.admit(prompt_of(trace, 0, 1).block_keys, 64, first_replay), 279 * 64);
  // Request 6 (ids diverge before request 5's end) shares its leading run with request 5 only.
  const auto& ids5 = trace.root.requests[5].hash_ids;
  const auto& ids6 = trace.root.requests[6].hash_ids;
  const auto common = static_cast<std::int64_t>(
      std::mismatch(ids5.begin(), ids5.end(), ids6.begin(), ids6.end()).first - ids5.begin());
  for (std::size_t k = 2; k < 6; ++k)
    ceiling.admit(prompt_of(trace, 0, k).block_keys, 64, first_replay);
  EXPECT_EQ(ceiling.admit(prompt_of(trace, 0, 6).block_keys, 64, first_replay), common * 64);
  // A second replay's first request finds the head another replay sent, and no more.
  EXPECT_EQ(ceiling.admit(prompt_of(trace, 0, 0, 1).block_keys, 64, second_replay), 241 * 64);
}

}  // namespace agent_trace_test
