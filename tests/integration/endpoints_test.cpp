// The endpoint table through the real binary: a gate or SLO on a figure the chosen endpoint
// cannot produce is a one-line usage error before any request is sent; the Responses API
// against the simulator counts what chat counts for the same simulated answers (issue 31).
#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "endpoint_runs.hpp"
#include "usage_errors.hpp"

namespace {

using bench::testing::EndpointRun;
using bench::testing::run_endpoint;
using nlohmann::json;

// Each request of `responses` succeeded and says, under every key of `keys`, what the same
// request of `chat` says.
void expect_same_requests(const EndpointRun& chat, const EndpointRun& responses,
                          std::initializer_list<const char*> keys) {
  ASSERT_EQ(responses.requests.size(), chat.requests.size());
  for (std::size_t i = 0; i < chat.requests.size(); ++i) {
    const json& r = responses.requests[i];
    SCOPED_TRACE(r.dump());
    ASSERT_EQ(r["status"], "ok");
    for (const char* key : keys) EXPECT_EQ(r[key], chat.requests[i][key]) << key;
  }
}

TEST(Endpoints, GateOnAFigureTheEndpointLacksIsRefusedBeforeAnythingIsSent) {
  const bench::testing::UsageErrorCases cases = {
      {{"--endpoint", "completions", "--fail-over", "p99_ttfa_ms=500"},
       "--fail-over: 'p99_ttfa_ms' is a figure of reasoning, which --endpoint completions does "
       "not produce"},
      {{"--endpoint", "completions", "--fail-under", "total_tool_calls=1"},
       "--fail-under: 'total_tool_calls' is a figure of tool calls, which --endpoint "
       "completions does not produce"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

TEST(Endpoints, ResponsesCountsEqualChatsForTheSameSimulatedAnswers) {
  const EndpointRun chat = run_endpoint("chat", {});
  const EndpointRun responses = run_endpoint("responses", {});
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(responses.process.exit_code, 0) << responses.process.err;
  ASSERT_EQ(chat.requests.size(), 12u);
  ASSERT_EQ(responses.requests.size(), 12u);
  EXPECT_EQ(responses.results["endpoint"], "responses");
  int reasoned = 0, called = 0;
  for (std::size_t i = 0; i < chat.requests.size(); ++i) {
    const json& c = chat.requests[i];
    const json& r = responses.requests[i];
    SCOPED_TRACE(r.dump());
    ASSERT_EQ(r["status"], "ok");
    EXPECT_EQ(responses.truth.at(r["response_id"].get<std::string>())["endpoint"], "responses");
    for (const char* key :
         {"prompt_tokens", "completion_tokens", "reasoning_tokens", "reasoning_chunks",
          "tool_calls", "tool_call_names", "tool_call_chunks", "tool_call_tokens",
          "cached_prompt_tokens", "finish_reason", "text_bytes", "prompt_token_source",
          "completion_token_source", "reasoning_token_source", "tool_call_token_source",
          "cached_prompt_token_source"}) {
      EXPECT_EQ(r[key], c[key]) << key;
    }
    EXPECT_EQ(r["chunk_arrival_ms"].size(), c["chunk_arrival_ms"].size());
    EXPECT_EQ(r["ttfa_ms"].is_null(), c["ttfa_ms"].is_null());
    reasoned += r["reasoning_tokens"].get<int>() > 0 ? 1 : 0;
    called += r["tool_calls"].get<int>() > 0 ? 1 : 0;
  }
  // The seed fixes the draws: the run holds every kind of answer.
  EXPECT_GT(reasoned, 0);
  EXPECT_LT(reasoned, 12);
  EXPECT_GT(called, 0);
  EXPECT_LT(called, 12);
  for (const char* key :
       {"completed", "total_input_tokens", "total_output_tokens", "total_text_chunks",
        "total_reasoning_tokens", "total_tool_calls", "total_tool_call_tokens",
        "requests_with_reasoning", "total_cached_input_tokens"}) {
    EXPECT_EQ(responses.results[key], chat.results[key]) << key;
  }
}

// A conversation over the Responses API sends what chat sends: each turn the whole history,
// the replies as streamed; the simulator counts and caches the same prompts.
TEST(Endpoints, ResponsesMultiTurnSendsTheHistoryChatSends) {
  const std::vector<std::string> sessions = {"--multi-turn", "--turns", "3"};
  const EndpointRun chat = run_endpoint("chat", sessions);
  const EndpointRun responses = run_endpoint("responses", sessions);
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(responses.process.exit_code, 0) << responses.process.err;
  ASSERT_EQ(chat.requests.size(), 36u);
  ASSERT_EQ(responses.requests.size(), 36u);
  expect_same_requests(chat, responses,
                       {"session", "turn", "prompt_tokens", "cached_prompt_tokens",
                        "completion_tokens", "reasoning_tokens"});
  std::int64_t grown = 0, cached = 0;
  for (const json& r : responses.requests) {
    if (r["turn"].get<int>() > 0) {
      grown += r["prompt_tokens"].get<std::int64_t>() > 24 ? 1 : 0;
      cached += r["cached_prompt_tokens"].get<std::int64_t>() > 0 ? 1 : 0;
    }
  }
  // Every later turn carries the history, and the prefix cache serves it.
  EXPECT_EQ(grown, 24);
  EXPECT_EQ(cached, 24);
}

// An agent session over the Responses API answers the model's function calls by their
// call_ids, as function_call_output items (issue 31): the simulator refuses chat's tool
// messages in a Responses input, as OpenAI does, and counts what chat's session sends.
TEST(Endpoints, ResponsesAgentSessionsSendTheHistoryChatSends) {
  const std::vector<std::string> agents = {"--multi-turn", "--turns", "3", "--tool-result-len",
                                           "10"};
  const EndpointRun chat = run_endpoint("chat", agents);
  const EndpointRun responses = run_endpoint("responses", agents);
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(responses.process.exit_code, 0) << responses.process.err;
  std::map<std::pair<int, int>, int> calls_of;  // (session, turn) -> the reply's tool calls
  for (const json& r : responses.requests) {
    calls_of[{r["session"].get<int>(), r["turn"].get<int>()}] = r["tool_calls"].get<int>();
  }
  expect_same_requests(chat, responses,
                       {"session", "turn", "prompt_tokens", "cached_prompt_tokens",
                        "completion_tokens", "tool_calls"});
  int answered_calls = 0;  // turns that followed a reply with calls: they sent its results
  for (const json& r : responses.requests) {
    const int turn = r["turn"].get<int>();
    answered_calls += turn > 0 && calls_of[{r["session"].get<int>(), turn - 1}] > 0 ? 1 : 0;
  }
  EXPECT_GT(answered_calls, 0);
}

TEST(Endpoints, ResponsesRefusesWhatItCannotCarryBeforeAnythingIsSent) {
  const bench::testing::UsageErrorCases cases = {
      {{"--endpoint", "responses", "--dataset", "random-ids"}, "--dataset random-ids"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace

namespace messages_endpoint_test {

using bench::testing::EndpointRun;
using bench::testing::run_endpoint;
using nlohmann::json;

// The Messages API over the same simulated answers as chat: the same prompts counted (its
// prompt is input_tokens plus the cache's reads), the same cached split, outputs, reasoning
// chunks, tool calls and finish reasons, and as many token-carrying events as chat's chunks.
TEST(Endpoints, MessagesCountsEqualChatsForTheSameSimulatedAnswers) {
  const EndpointRun chat = run_endpoint("chat", {});
  const EndpointRun messages = run_endpoint("messages", {});
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(messages.process.exit_code, 0) << messages.process.err;
  ASSERT_EQ(messages.requests.size(), 12u);
  EXPECT_EQ(messages.results["endpoint"], "messages");
  int called = 0;
  for (std::size_t i = 0; i < chat.requests.size(); ++i) {
    const json& c = chat.requests[i];
    const json& m = messages.requests[i];
    SCOPED_TRACE(m.dump());
    ASSERT_EQ(m["status"], "ok");
    EXPECT_EQ(messages.truth.at(m["response_id"].get<std::string>())["endpoint"], "messages");
    for (const char* key :
         {"prompt_tokens", "completion_tokens", "reasoning_chunks", "tool_calls", "tool_call_names",
          "cached_prompt_tokens", "finish_reason", "text_bytes", "prompt_token_source",
          "completion_token_source", "cached_prompt_token_source"}) {
      EXPECT_EQ(m[key], c[key]) << key;
    }
    called += c["tool_calls"].get<int>() > 0 ? 1 : 0;
    EXPECT_EQ(m["chunk_arrival_ms"].size(), c["chunk_arrival_ms"].size());
    EXPECT_EQ(m["ttfa_ms"].is_null(), c["ttfa_ms"].is_null());
  }
  EXPECT_GT(called, 0);
  for (const char* key : {"completed", "total_input_tokens", "total_output_tokens",
                          "total_tool_calls", "total_cached_input_tokens"}) {
    EXPECT_EQ(messages.results[key], chat.results[key]) << key;
  }
}

// An agent session over the Messages API answers the model's tool calls as tool_result blocks
// in a user turn, and the simulator counts and caches what chat's session sends.
TEST(Endpoints, MessagesAgentSessionsSendTheHistoryChatSends) {
  const std::vector<std::string> agents = {"--multi-turn", "--turns", "3", "--tool-result-len",
                                           "10"};
  const EndpointRun chat = run_endpoint("chat", agents);
  const EndpointRun messages = run_endpoint("messages", agents);
  ASSERT_EQ(chat.process.exit_code, 0) << chat.process.err;
  ASSERT_EQ(messages.process.exit_code, 0) << messages.process.err;
  // A tool call's input goes back as a JSON object, which the server serializes as it will
  // (the simulator without chat's space after the colon, one word fewer for its word count): each
  // call in a history may move the prompt by a token.
  expect_same_requests(chat, messages, {"session", "turn", "completion_tokens", "tool_calls"});
  int carried = 0;
  for (std::size_t i = 0; i < chat.requests.size(); ++i) {
    const json& c = chat.requests[i];
    const json& m = messages.requests[i];
    EXPECT_NEAR(m["prompt_tokens"].get<double>(), c["prompt_tokens"].get<double>(),
                c["turn"].get<double>());
    carried += m["turn"].get<int>() > 0 && m["cached_prompt_tokens"].get<int>() > 0 ? 1 : 0;
  }
  EXPECT_GT(carried, 0);  // later turns carried the history, and the cache served it
}

// The key (sent as x-api-key: MessagesEndpoint.TheKeyGoesAsXApiKeyWithTheVersionHeader) appears
// in no output.
TEST(Endpoints, MessagesPrintsTheKeyNowhere) {
  bench::testing::TempDir dir;
  const std::string secret = "sk-ant-api03-SECRETSECRETSECRET";
  const auto run = bench::testing::run_process(
      BENCH_BINARY,
      {"--endpoint", "messages", "--api-key", secret, "--num-prompts", "3", "--concurrency", "1",
       "--input-len", "8", "--output-len", "4", "--output-file", dir.file("r.json"),
       "--save-requests", dir.file("q.jsonl"), "--sim-trace", dir.file("t.jsonl")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& text : {run.out, run.err, bench::testing::read_file(dir.file("r.json")),
                                  bench::testing::read_file(dir.file("q.jsonl"))}) {
    EXPECT_EQ(text.find(secret), std::string::npos);
  }
}

}  // namespace messages_endpoint_test
