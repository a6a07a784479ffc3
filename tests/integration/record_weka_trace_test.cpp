// `bench record --weka-trace` round trip: bench replays Weka traces (--dataset trace
// --trace-format weka) through the recorder in front of the simulator, and the traces the
// recorder writes are read back with bench's own reader: one session per replayed agent, each
// request's "in" and "out" as replayed (the simulator counts words as tokens), equal leading
// ids where the replayed requests shared blocks, no word of any prompt in the files; and the
// written traces, replayed again the same way, come back with the same lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "announcing_process.hpp"
#include "bench/workload/agent_trace.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "serve_sim_process.hpp"
#include "wire_corpus_support.hpp"

namespace record_weka_trace_test {

using bench::testing::AnnouncingProcess;
using bench::testing::run_process;
using bench::testing::ServeSimProcess;
using bench::testing::TempDir;
using bench::workload::AgentScript;
using bench::workload::AgentTrace;
using nlohmann::json;

const std::string kTraces = BENCH_TEST_DATA_DIR "/traces/";
constexpr std::int64_t kRecordedBlock = 64;  // the recorder's block size

struct Recording {
  std::vector<AgentTrace> traces;           // what --weka-trace wrote, read back
  std::vector<bench::wire::Exchange> wire;  // what --out wrote: the requests bench sent
  std::string trace_dir;
  std::string record_err;
};

// bench replaying `path` (its `trees` session trees, one lane each) through `bench record`
// in front of a fast simulator, each agent naming its session in X-Session-Id (bench's replay
// does not resend a prompt verbatim in the next request: each request's last partial block is
// text of its own, so without the header each request would be a session). No per-chunk usage
// probe: its "Hello" would be a session of its own.
Recording record_replay(const std::string& path, std::size_t trees, const TempDir& temp,
                        const std::string& name) {
  const TempDir sim_dir;  // the simulator's own: it announces its port in a file of a fixed name
  ServeSimProcess sim(BENCH_BINARY, {"--ttft-ms", "1", "--tpot-ms", "0.1"}, sim_dir);
  Recording recording;
  recording.trace_dir = temp.file(name + "-traces");
  const std::string wire_dir = temp.file(name + "-wire");
  AnnouncingProcess proxy(BENCH_BINARY,
                          {"record", "--upstream", sim.base_url(), "--listen", "127.0.0.1:0",
                           "--out", wire_dir, "--weka-trace", recording.trace_dir},
                          temp.file(name + "-record.err"));
  const auto run =
      run_process(BENCH_BINARY,
                  bench::testing::without_answer_check({"--base-url",        proxy.base_url(),
                                                        "--dataset",         "trace",
                                                        "--trace-format",    "weka",
                                                        "--dataset-path",    path,
                                                        "--trace-speed",     "100",
                                                        "--trace-start",     "beginning",
                                                        "--num-prompts",     std::to_string(trees),
                                                        "--concurrency",     std::to_string(trees),
                                                        "--session-header",  "X-Session-Id",
                                                        "--per-chunk-usage", "off",
                                                        "--output-format",   "json"}));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const auto& stopped = proxy.stop();
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  recording.record_err = bench::testing::read_file(temp.file(name + "-record.err"));
  recording.traces = bench::workload::read_agent_traces(recording.trace_dir);
  recording.wire = bench::testing::load_or_empty(wire_dir);
  return recording;
}

// Each agent's requests as (in, out) pairs, sorted: agents in any order.
using Lengths = std::vector<std::pair<std::int64_t, std::int64_t>>;
Lengths lengths_of(const AgentScript& agent) {
  Lengths lengths;
  for (const auto& request : agent.requests) {
    lengths.emplace_back(request.input_len, request.output_len);
  }
  return lengths;
}

std::vector<Lengths> agents_of(const std::vector<AgentTrace>& traces) {
  std::vector<Lengths> agents;
  for (const AgentTrace& trace : traces) {
    agents.push_back(lengths_of(trace.root));
    for (const auto& child : trace.children) agents.push_back(lengths_of(child.script));
  }
  std::sort(agents.begin(), agents.end());
  return agents;
}

std::size_t common_ids(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first -
                                  a.begin());
}

// For each agent (by its lengths), the blocks of 64 each request shares with the one before:
// the replay's texts are equal exactly as far as the recorded blocks were.
std::multiset<std::pair<Lengths, std::vector<std::size_t>>> shared_blocks(
    const std::vector<AgentTrace>& traces) {
  std::multiset<std::pair<Lengths, std::vector<std::size_t>>> shared;
  for (const AgentTrace& trace : traces) {
    std::vector<const AgentScript*> agents = {&trace.root};
    for (const auto& child : trace.children) agents.push_back(&child.script);
    for (const AgentScript* agent : agents) {
      std::vector<std::size_t> counts;
      for (std::size_t k = 1; k < agent->requests.size(); ++k) {
        const std::size_t tokens =
            common_ids(agent->requests[k - 1].hash_ids, agent->requests[k].hash_ids) *
            static_cast<std::size_t>(trace.block_size);
        counts.push_back(tokens / kRecordedBlock);
      }
      shared.emplace(lengths_of(*agent), counts);
    }
  }
  return shared;
}

// Every string of a JSON document, keys and values.
void strings_in(const json& value, std::set<std::string>& strings) {
  if (value.is_string()) strings.insert(value.get<std::string>());
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      strings.insert(key);
      strings_in(item, strings);
    }
  }
  if (value.is_array()) {
    for (const json& item : value) strings_in(item, strings);
  }
}

// Every word of every message bench sent.
std::set<std::string> prompt_words(const std::vector<bench::wire::Exchange>& exchanges) {
  std::set<std::string> words;
  for (const auto& exchange : exchanges) {
    const json body = json::parse(exchange.request_body, nullptr, false);
    if (!body.is_object() || !body.contains("messages")) continue;
    for (const json& message : body["messages"]) {
      std::istringstream text(message.value("content", ""));
      for (std::string word; text >> word;) words.insert(word);
    }
  }
  return words;
}

// Every string in the files is one of the format's own names, the session's id or a model's
// name; none is a word of a prompt.
void expect_no_text(const Recording& recording) {
  const std::set<std::string> words = prompt_words(recording.wire);
  ASSERT_FALSE(words.empty());
  const std::set<std::string> format = {"id",
                                        "models",
                                        "block_size",
                                        "hash_id_scope",
                                        "local",
                                        "block_unit",
                                        "words",
                                        "tool_tokens",
                                        "system_tokens",
                                        "requests",
                                        "t",
                                        "type",
                                        "s",
                                        "n",
                                        "model",
                                        "in",
                                        "out",
                                        "hash_ids",
                                        "input_types",
                                        "text",
                                        "tool_result",
                                        "output_types",
                                        "stop",
                                        "end_turn",
                                        "tool_use",
                                        "max_tokens",
                                        "think_time",
                                        "api_time",
                                        "counted"};
  for (const auto& entry : std::filesystem::directory_iterator(recording.trace_dir)) {
    std::ifstream in(entry.path());
    const json trace = json::parse(in);
    std::set<std::string> allowed = format;
    allowed.insert(trace["id"].get<std::string>());
    for (const json& model : trace["models"]) allowed.insert(model.get<std::string>());
    std::set<std::string> strings;
    strings_in(trace, strings);
    for (const std::string& text : strings) {
      EXPECT_TRUE(allowed.contains(text)) << entry.path() << " holds \"" << text << '"';
      // The format's names are common words ("in", "out", "text") that bench's random prompts
      // hold too: they are the format's. Anything else must be no word of a prompt.
      if (format.contains(text)) continue;
      EXPECT_FALSE(words.contains(text)) << entry.path() << " holds the prompt's word " << text;
    }
  }
}

// What bench sent streamed and not, against what the traces say.
void expect_stream_flags_as_sent(const Recording& recording) {
  std::size_t sent_streamed = 0, sent_whole = 0, traced_streamed = 0, traced_whole = 0;
  for (const auto& exchange : recording.wire) {
    if (exchange.shape.path != "/v1/chat/completions") continue;
    ++(exchange.shape.stream ? sent_streamed : sent_whole);
  }
  for (const AgentTrace& trace : recording.traces) {
    for (const auto& request : trace.root.requests)
      ++(request.streamed ? traced_streamed : traced_whole);
  }
  EXPECT_EQ(traced_streamed, sent_streamed);
  EXPECT_EQ(traced_whole, sent_whole);
}

// `path`'s agents come back as sessions, lengths and shared blocks as replayed, no text.
void expect_round_trip(const std::string& path, std::size_t trees, const std::string& name) {
  const TempDir temp;
  const std::vector<AgentTrace> replayed = bench::workload::read_agent_traces(path);
  const Recording recording = record_replay(path, trees, temp, name);
  ASSERT_FALSE(recording.traces.empty()) << recording.record_err;
  // A subagent has a session header value of its own: a session of its own, no subagents.
  for (const AgentTrace& trace : recording.traces) EXPECT_TRUE(trace.children.empty());
  EXPECT_EQ(agents_of(recording.traces), agents_of(replayed));
  EXPECT_EQ(shared_blocks(recording.traces), shared_blocks(replayed));
  expect_stream_flags_as_sent(recording);
  expect_no_text(recording);
  EXPECT_NE(recording.record_err.find("as Weka traces"), std::string::npos) << recording.record_err;
  EXPECT_EQ(recording.record_err.find("had no usage"), std::string::npos) << recording.record_err;
  EXPECT_EQ(recording.record_err.find("another number of blocks"), std::string::npos)
      << recording.record_err;

  // The written traces replayed again: the same agents, the same lengths.
  const Recording again =
      record_replay(recording.trace_dir, recording.traces.size(), temp, name + "-again");
  EXPECT_EQ(agents_of(again.traces), agents_of(recording.traces));
}

TEST(RecordWekaTrace, ATreeWithSubagentsComesBackOneSessionPerAgentWithItsLengthsAndNoText) {
  expect_round_trip(kTraces + "weka_tree.json", 1, "tree");
}

TEST(RecordWekaTrace, ARealSessionComesBackWithItsLengthsItsSharedBlocksAndNoText) {
  expect_round_trip(kTraces + "weka/trace_0504.json", 1, "real");
}

}  // namespace record_weka_trace_test
