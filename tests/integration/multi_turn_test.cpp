// Multi-turn conversations (--multi-turn) against the embedded server, seen from its truth log:
// every turn after the first carries the reply the server streamed for the turn before,
// verbatim (the log hashes the last assistant message each request carried and the answer text
// each response streamed), the growing history is served from the server's prefix cache, and
// bad multi-turn flags are one line and the usage exit code.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "session_turns.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

using bench::cli::kExitUsage;

// A server that answers every request with the same short reply and keeps the requests it got.
class RecordingServer {
 public:
  // The reply as the stream's JSON escapes it, and as text.
  static constexpr std::string_view kReplyJson = R"(a reply, with \"quotes\")";
  static constexpr std::string_view kReply = "a reply, with \"quotes\"";
  RecordingServer()
      : server_([this](bench::testing::Exchange& exchange) {
          if (exchange.request().starts_with("POST ")) {  // not bench's GETs about the server
            const std::lock_guard lock(mutex_);
            requests_.push_back(exchange.request());
          }
          exchange.send(bench::testing::http_head(200, "text/event-stream"));
          exchange.send(std::string(R"(data: {"choices":[{"delta":{"content":")") +
                        std::string(kReplyJson) + "\"}}]}\n\ndata: [DONE]\n\n");
        }) {}
  std::string base_url() const { return server_.base_url(); }
  std::vector<std::string> requests() {
    const std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> requests_;
  bench::testing::HostileServer server_;  // last: its threads stop before the rest goes
};

// The server's truth-log line of each request bench sent, by (session, turn), joined on the
// response id bench recorded.
std::map<std::pair<int, int>, json> turns_served(const std::string& requests_path,
                                                 const std::string& trace_path) {
  std::map<std::pair<int, int>, json> turns;
  for (auto& [key, lines] : bench::testing::session_turns(requests_path, trace_path)) {
    EXPECT_EQ(lines.sent["status"], "ok") << lines.sent;
    turns[key] = std::move(lines.served);
  }
  return turns;
}

TEST(MultiTurn, EachTurnSendsBackThePreviousReplyVerbatimAndItsHistoryHitsThePrefixCache) {
  const TempDir dir;
  const std::string requests_path = dir.file("requests.jsonl");
  const std::string trace_path = dir.file("trace.jsonl");
  const ProcessResult run =
      run_process(BENCH_BINARY, bench::testing::without_answer_check({"--multi-turn",
                                                                      "--turns",
                                                                      "3",
                                                                      "--think-time",
                                                                      "uniform:0-0.02",
                                                                      "--num-prompts",
                                                                      "4",
                                                                      "--concurrency",
                                                                      "2",
                                                                      "--input-len",
                                                                      "40",
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
                                                                      "--quiet"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::map<std::pair<int, int>, json> turns = turns_served(requests_path, trace_path);
  ASSERT_EQ(turns.size(), 12u);  // 4 sessions x 3 turns
  for (const auto& [key, served] : turns) {
    const auto [session, turn] = key;
    if (turn == 0) {
      EXPECT_TRUE(served["last_assistant_hash"].is_null()) << served;
      continue;
    }
    const json& before = turns.at({session, turn - 1});
    EXPECT_EQ(served["last_assistant_hash"], before["reply_hash"]) << "session " << session;
    // The turn before's prompt is this prompt's prefix: its whole 16-token blocks are cached.
    EXPECT_GE(served["cached_prompt_tokens"].get<std::int64_t>(),
              before["prompt_tokens"].get<std::int64_t>() / 16 * 16)
        << served;
    EXPECT_GT(served["prompt_tokens"], before["prompt_tokens"].get<std::int64_t>() + 8);
  }
  const json results = json::parse(run.out);
  const json& multi_turn = results["multi_turn"];
  EXPECT_EQ(multi_turn["sessions_completed"], 4);
  EXPECT_EQ(multi_turn["turns_completed"], 12);
  ASSERT_EQ(multi_turn["by_turn"].size(), 3u);
  EXPECT_EQ(multi_turn["by_turn"][2]["requests"], 4);
  EXPECT_GT(multi_turn["by_turn"][2]["mean_input_tokens"].get<double>(),
            multi_turn["by_turn"][0]["mean_input_tokens"].get<double>() + 2 * 40);
}

// --num-prompts counts sessions: the start-up line said "closed loop, 12 requests" for a run
// that sent 36.
TEST(MultiTurn, TheStartUpLineCountsSessionsAndTheirRequests) {
  RecordingServer server;
  const ProcessResult run = run_process(BENCH_BINARY, {"--base-url",
                                                       server.base_url(),
                                                       "--model",
                                                       "m",
                                                       "--per-chunk-usage",
                                                       "off",
                                                       "--preconnect",
                                                       "0",
                                                       "--multi-turn",
                                                       "--turns",
                                                       "3",
                                                       "--num-prompts",
                                                       "12",
                                                       "--concurrency",
                                                       "4",
                                                       "--input-len",
                                                       "4",
                                                       "--output-format",
                                                       "json",
                                                       "--no-answer-check"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(server.requests().size(), 36u);
  EXPECT_NE(run.err.find("closed loop, 12 sessions of 3 turns (36 requests)"), std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("12 requests"), std::string::npos) << run.err;
}

TEST(MultiTurn, BadMultiTurnInputIsOneLineAndTheUsageExitWithNothingSent) {
  struct Case {
    std::vector<std::string> args;
    std::string must_mention;
  };
  const std::vector<Case> cases = {
      {{"--turns", "2", "--think-time", "exp:-1"}, "--think-time: 'exp:-1'"},
      {{"--turns", "2", "--think-time", "uniform:2-1"}, "--think-time: 'uniform:2-1'"},
      {{"--turns", "2", "--dataset", "shared-prefix"},
       "--multi-turn: not with --dataset shared-prefix"},
      {{"--turns", "2", "--request-rate", "4"}, "--request-rate: not with --multi-turn"},
      {{"--turns", "2", "--tokenizer", "server"}, "--tokenizer: not with --multi-turn"},
      {{}, "--turns"},  // random prompts need a number of turns
  };
  bench::sim::SimServer server({});
  for (const Case& bad : cases) {
    std::vector<std::string> args = {"--base-url", server.base_url(), "--multi-turn"};
    args.insert(args.end(), bad.args.begin(), bad.args.end());
    const ProcessResult result =
        run_process(BENCH_BINARY, bench::testing::without_answer_check(args));
    EXPECT_EQ(result.exit_code, kExitUsage) << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;  // one line
    EXPECT_NE(result.err.find(bad.must_mention), std::string::npos) << result.err;
  }
  EXPECT_EQ(server.requests_served(), 0u);
}

TEST(MultiTurn, EveryTurnOfASessionCarriesItsSessionHeaderAndTheReplyInItsTranscript) {
  RecordingServer server;
  const ProcessResult run =
      run_process(BENCH_BINARY, bench::testing::without_answer_check({"--base-url",
                                                                      server.base_url(),
                                                                      "--model",
                                                                      "m",
                                                                      "--endpoint",
                                                                      "completions",
                                                                      "--per-chunk-usage",
                                                                      "off",
                                                                      "--preconnect",
                                                                      "0",
                                                                      "--multi-turn",
                                                                      "--turns",
                                                                      "2",
                                                                      "--num-prompts",
                                                                      "2",
                                                                      "--concurrency",
                                                                      "1",
                                                                      "--input-len",
                                                                      "4",
                                                                      "--session-header",
                                                                      "X-Session-Id",
                                                                      "--quiet"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);  // one session at a time: s0 t0, s0 t1, s1 t0, s1 t1
  std::vector<std::string> ids;
  const std::regex header("X-Session-Id: ([^\r]+)\r\n");
  for (const std::string& request : requests) {
    std::smatch found;
    ASSERT_TRUE(std::regex_search(request, found, header)) << request;
    ids.push_back(found[1]);
  }
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_EQ(ids[2], ids[3]);
  EXPECT_NE(ids[0], ids[2]);
  // The second turn's prompt: the first prompt, the reply as streamed, a blank line, the next.
  const json first = json::parse(requests[0].substr(requests[0].find("\r\n\r\n") + 4));
  const json second = json::parse(requests[1].substr(requests[1].find("\r\n\r\n") + 4));
  const std::string opening =
      first["prompt"].get<std::string>() + std::string(RecordingServer::kReply) + "\n\n";
  EXPECT_EQ(second["prompt"].get<std::string>().rfind(opening, 0), 0u) << second["prompt"];
  EXPECT_GT(second["prompt"].get<std::string>().size(), opening.size());
}

// The --session-header id of each request a server got, in order.
std::vector<std::string> session_ids(const std::vector<std::string>& requests) {
  std::vector<std::string> ids;
  const std::regex header("X-Session-Id: ([^\r]+)\r\n");
  for (const std::string& request : requests) {
    std::smatch found;
    EXPECT_TRUE(std::regex_search(request, found, header)) << request;
    if (!found.empty()) ids.push_back(found[1]);
  }
  return ids;
}

TEST(MultiTurn, WithSeveralServersEachSessionStaysOnOneServerAndItsFiguresAreThatServers) {
  RecordingServer first;
  RecordingServer second;
  const ProcessResult run =
      run_process(BENCH_BINARY, bench::testing::without_answer_check({"--base-url",
                                                                      first.base_url(),
                                                                      "--base-url",
                                                                      second.base_url(),
                                                                      "--model",
                                                                      "m",
                                                                      "--per-chunk-usage",
                                                                      "off",
                                                                      "--preconnect",
                                                                      "0",
                                                                      "--multi-turn",
                                                                      "--turns",
                                                                      "3",
                                                                      "--num-prompts",
                                                                      "4",
                                                                      "--concurrency",
                                                                      "2",
                                                                      "--input-len",
                                                                      "4",
                                                                      "--session-header",
                                                                      "X-Session-Id",
                                                                      "--output-format",
                                                                      "json",
                                                                      "--quiet"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Round robin by session: sessions 0 and 2 on the first server, 1 and 3 on the second, each
  // with all three of its turns.
  const std::vector<std::string> on_first = session_ids(first.requests());
  const std::vector<std::string> on_second = session_ids(second.requests());
  ASSERT_EQ(on_first.size(), 6u);
  ASSERT_EQ(on_second.size(), 6u);
  std::map<std::string, int> turns_on_first;
  for (const std::string& id : on_first) ++turns_on_first[id];
  for (const std::string& id : on_second) {
    EXPECT_EQ(turns_on_first.count(id), 0u) << id << " went to both servers";
  }
  EXPECT_EQ(turns_on_first.size(), 2u);
  for (const auto& [id, turns] : turns_on_first) EXPECT_EQ(turns, 3) << id;
  const json results = json::parse(run.out);
  ASSERT_EQ(results["per_server"].size(), 2u);
  EXPECT_EQ(results["per_server"][0]["sent"], 6);
  EXPECT_EQ(results["per_server"][1]["sent"], 6);
}

}  // namespace

namespace {

// The context check holds a session's last turn, its whole history, against max_model_len:
// 3 turns of 50-word prompts and 10-token replies fit one request at a time (60) but the last
// turn may make 180, beyond the embedded server's 170: a warning before anything is sent.
TEST(MultiTurn, ASessionWhoseLastTurnMayOutgrowTheContextIsWarnedOf) {
  const ProcessResult run = run_process(
      BENCH_BINARY, {"--multi-turn", "--turns", "3", "--num-prompts", "1", "--input-len", "50",
                     "--output-len", "10", "--ignore-eos", "--sim-max-model-len", "170",
                     "--sim-ttft-ms", "1", "--sim-tpot-ms", "1", "--output-format", "json"});
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;  // 1: a turn was refused
  EXPECT_NE(run.err.find("bench: warning: a session's last turn sends 3 prompts of up to 50 "
                         "words and the 2 replies before it, up to 10 tokens each, and asks "
                         "max_tokens 10: up to 180 in all, beyond the model's max_model_len "
                         "170 tokens"),
            std::string::npos)
      << run.err;
}

}  // namespace
