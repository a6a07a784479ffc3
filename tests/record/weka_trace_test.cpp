// The traces the recorder writes, read back by bench's own reader: one file per session, the
// server's counts, times from the proxy's clock, ids of equal prefixes equal, ids padded or cut
// to the server's count, what was counted said, and no text of the traffic in any file.
#include "bench/record/weka_trace.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/workload/agent_trace.hpp"
#include "run_process.hpp"

namespace weka_trace_test {

using bench::record::WekaTraceRecorder;
using bench::testing::TempDir;
using bench::workload::AgentTrace;
using nlohmann::json;

constexpr std::int64_t kMs = 1'000'000;

// `count` words "secret<start>", ... (a word the file must never hold)
std::string secret_words(int start, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "secret" + std::to_string(start + i) + " ";
  return text;
}

// A streamed chat exchange of `messages` whose usage says `usage` (null: none), ending
// `api_ms` after it was sent.
bench::wire::Exchange chat(const json& messages, const json& usage, const std::string& finish,
                           std::int64_t api_ms, bool stream = true) {
  json body = {{"model", "m1"}, {"messages", messages}};
  if (stream) body["stream"] = true;
  json last = {{"choices", json::array({json{{"delta", {{"content", " reply words"}}},
                                             {"finish_reason", finish}}})}};
  if (!usage.is_null()) last["usage"] = usage;
  const std::string events = "data: " + last.dump() + "\n\ndata: [DONE]\n\n";
  bench::wire::Exchange exchange;
  exchange.request_body = body.dump();
  exchange.shape = bench::wire::shape_of("POST", "/v1/chat/completions", exchange.request_body);
  exchange.response = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " +
                      std::to_string(events.size()) + "\r\n\r\n" + events;
  exchange.status = 200;
  exchange.reads.push_back({api_ms * kMs, exchange.response.size()});
  return exchange;
}

json user(const std::string& text) { return json{{"role", "user"}, {"content", text}}; }
json reply(const std::string& text) { return json{{"role", "assistant"}, {"content", text}}; }
json usage(int in, int out) { return json{{"prompt_tokens", in}, {"completion_tokens", out}}; }

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(WekaTraceRecorder, WritesASessionPerConversationReadBackByTheTracesReader) {
  const TempDir dir;
  WekaTraceRecorder recorder({dir.path(), 4, nullptr, 42});
  const json first = json::array({user(secret_words(0, 9))});
  const json second = json::array({user(secret_words(0, 9)), reply(secret_words(100, 2)),
                                   json{{"role", "tool"}, {"content", secret_words(200, 3)}}});
  const json other = json::array({user(secret_words(300, 5))});
  // As responses end: the other conversation's first, then the first's two turns.
  recorder.add(chat(other, usage(5, 2), "stop", 5), 1'000 * kMs, "");
  recorder.add(chat(first, usage(9, 2), "tool_calls", 10), 990 * kMs, "");
  recorder.add(chat(second, usage(14, 3), "stop", 20), 1'030 * kMs, "");
  const auto tally = recorder.write();
  EXPECT_EQ(tally.sessions, 2u);
  EXPECT_EQ(tally.requests, 3u);
  EXPECT_EQ(tally.counted, 0u);
  EXPECT_EQ(tally.reconciled, 0u);

  const std::vector<AgentTrace> traces = bench::workload::read_agent_traces(dir.path());
  ASSERT_EQ(traces.size(), 2u);
  const AgentTrace& session = traces[0];  // the first to send
  EXPECT_EQ(session.id, "session_000001");
  EXPECT_EQ(session.block_size, 4);
  ASSERT_EQ(session.root.requests.size(), 2u);
  const auto& a = session.root.requests[0];
  const auto& b = session.root.requests[1];
  EXPECT_EQ(a.input_len, 9);
  EXPECT_EQ(a.output_len, 2);
  EXPECT_EQ(a.hash_ids, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(b.input_len, 14);
  EXPECT_EQ(b.hash_ids, (std::vector<std::int64_t>{1, 2, 3}));  // the first 8 words shared
  EXPECT_TRUE(b.answers_tool);
  EXPECT_FALSE(a.answers_tool);
  EXPECT_TRUE(a.streamed);
  EXPECT_DOUBLE_EQ(a.t_s, 0);
  EXPECT_DOUBLE_EQ(b.t_s, 0.040);
  EXPECT_DOUBLE_EQ(a.api_time_s, 0.010);
  EXPECT_DOUBLE_EQ(b.think_time_s, 0.030);  // from the first's end (1000 ms) to 1030 ms
  EXPECT_EQ(traces[1].root.requests.size(), 1u);

  const json written = json::parse(read_all(dir.file("session_000001.json")));
  EXPECT_EQ(written["block_unit"], "words");
  EXPECT_EQ(written["hash_id_scope"], "local");
  EXPECT_EQ(written["models"], json::array({"m1"}));
  EXPECT_EQ(written["requests"][0]["stop"], "tool_use");
  EXPECT_EQ(written["requests"][1]["stop"], "end_turn");
  EXPECT_EQ(written["requests"][1]["input_types"], json::array({"tool_result"}));
  EXPECT_EQ(written["requests"][0]["output_types"], json::array({"text"}));
  EXPECT_FALSE(written["requests"][0].contains("counted"));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(read_all(entry.path().string()).find("secret"), std::string::npos) << entry.path();
    EXPECT_EQ(read_all(entry.path().string()).find("reply"), std::string::npos) << entry.path();
  }
}

TEST(WekaTraceRecorder, CountsWhatUsageDidNotSayAndSaysSo) {
  const TempDir dir;
  WekaTraceRecorder recorder({dir.path(), 4, nullptr, 42});
  recorder.add(chat(json::array({user(secret_words(0, 6))}), nullptr, "length", 3, false), 0, "");
  const auto tally = recorder.write();
  EXPECT_EQ(tally.counted, 1u);
  EXPECT_EQ(tally.unit, "words");
  const json written = json::parse(read_all(dir.file("session_000001.json")));
  const json& request = written["requests"][0];
  EXPECT_EQ(request["in"], 6);   // the words of the prompt
  EXPECT_EQ(request["out"], 2);  // " reply words"
  EXPECT_EQ(request["counted"], json::array({"in", "out"}));
  EXPECT_EQ(request["type"], "n");
  EXPECT_EQ(request["stop"], "max_tokens");
}

TEST(WekaTraceRecorder, PadsOrCutsTheIdsToTheServersCountSoEqualLeadingIdsStillMeanAnEqualPrefix) {
  const TempDir dir;
  WekaTraceRecorder recorder({dir.path(), 4, nullptr, 42});
  const json first = json::array({user(secret_words(0, 8))});
  const json second = json::array({user(secret_words(0, 8)), reply("x"), user("y")});
  // The server counts 4 more (a template) in the first, and 5 fewer in the second.
  recorder.add(chat(first, usage(12, 1), "stop", 1), 0, "");
  recorder.add(chat(second, usage(5, 1), "stop", 1), 10 * kMs, "");
  EXPECT_EQ(recorder.write().reconciled, 2u);
  const std::vector<AgentTrace> traces = bench::workload::read_agent_traces(dir.path());
  ASSERT_EQ(traces.size(), 1u);
  // Two counted blocks and one of the first request's own; then the first of the second's two
  // counted blocks (its 10 words make two, the server's 5 tokens one).
  EXPECT_EQ(traces[0].root.requests[0].hash_ids, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(traces[0].root.requests[1].hash_ids, (std::vector<std::int64_t>{1}));
}

TEST(WekaTraceRecorder, LeavesOutWhatIsNoCompletionAndSaysWhy) {
  const TempDir dir;
  WekaTraceRecorder recorder({dir.path(), 4, nullptr, 42});
  bench::wire::Exchange models;
  models.shape = bench::wire::shape_of("GET", "/v1/models", "");
  models.status = 200;
  recorder.add(models, 0, "");
  const auto tally = recorder.write();
  EXPECT_EQ(tally.left_out, 1u);
  EXPECT_EQ(tally.first_left_out, "GET /v1/models: not a completion");
  EXPECT_EQ(tally.sessions, 0u);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace weka_trace_test
