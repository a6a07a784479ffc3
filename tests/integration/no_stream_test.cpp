// --no-stream through the real binary: requests sent with "stream": false and read as one
// whole JSON body each, against the embedded simulator. What a whole answer measures (E2E,
// exact tokens, throughput) is there; what only a stream can time (TTFT, ITL, TPOT) is absent,
// said so, and a gate on it fails saying why.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "endpoint_runs.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"
#include "session_turns.hpp"

namespace {

using bench::testing::EndpointRun;
using bench::testing::read_jsonl;
using bench::testing::run_endpoint;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

constexpr int kNoStreamPrompts = 12;
constexpr int kNoStreamOutputLen = 24;

// One run of the embedded simulator (no --base-url; fixed profile: 50 ms to the first token,
// then 10 ms a token) on `endpoint`, the answer check included, every answer whole.
void check_whole_answers_run(const std::string& endpoint) {
  SCOPED_TRACE(endpoint);
  TempDir dir;
  const bench::testing::ProcessResult run = run_process(
      BENCH_BINARY,
      {"--no-stream", "--endpoint", endpoint, "--num-prompts", std::to_string(kNoStreamPrompts),
       "--concurrency", "4", "--input-len", "32", "--output-len",
       std::to_string(kNoStreamOutputLen), "--ignore-eos", "--output-file",
       dir.file("results.json"), "--save-requests", dir.file("requests.jsonl")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("No request was streamed (--no-stream): TTFT, ITL, ICL and TPOT do not "
                         "exist"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("\nTTFT "), std::string::npos) << run.out;  // no row, not a 0
  EXPECT_NE(run.out.find("\nE2E "), std::string::npos) << run.out;

  const json results = json::parse(bench::testing::read_file(dir.file("results.json")));
  EXPECT_EQ(results["config"]["stream"], false);
  EXPECT_EQ(results["completed"], kNoStreamPrompts);
  EXPECT_EQ(results["failed"], 0);
  EXPECT_EQ(results["requests_not_streamed"], kNoStreamPrompts);
  EXPECT_EQ(results["total_output_tokens"], kNoStreamPrompts * kNoStreamOutputLen);
  EXPECT_EQ(results["mean_completion_tokens"], kNoStreamOutputLen);
  EXPECT_EQ(results["token_count_source"]["output"], "usage");
  EXPECT_GT(results["output_throughput"].get<double>(), 0);
  // A whole answer is sent when its last token is made: 50 ms, then 23 x 10 ms.
  ASSERT_TRUE(results["median_e2e_latency_ms"].is_number()) << results["median_e2e_latency_ms"];
  EXPECT_GE(results["median_e2e_latency_ms"].get<double>(), 280.0);
  for (const char* absent : {"median_ttft_ms", "p99_ttft_ms", "median_itl_ms", "p99_icl_ms",
                             "median_tpot_ms", "median_output_throughput_per_user"}) {
    EXPECT_TRUE(results[absent].is_null()) << absent << ": " << results[absent];
  }

  const std::vector<json> requests = read_jsonl(dir.file("requests.jsonl"));
  ASSERT_EQ(requests.size(), static_cast<std::size_t>(kNoStreamPrompts));
  for (const json& request : requests) {
    SCOPED_TRACE(request.dump());
    EXPECT_EQ(request["status"], "ok");
    EXPECT_EQ(request["streamed"], false);
    EXPECT_TRUE(request["ttft_ms"].is_null());
    EXPECT_TRUE(request["chunk_arrival_ms"].empty());
    EXPECT_EQ(request["completion_tokens"], kNoStreamOutputLen);
    EXPECT_GE(request["e2e_ms"].get<double>(), 280.0);
  }
}

TEST(NoStream, MeasuresE2EAndExactTokensAndSaysTokenTimingsAreAbsent) {
  check_whole_answers_run("chat");
  check_whole_answers_run("completions");
}

TEST(NoStream, AGateOnTtftFailsSayingNothingWasStreamed) {
  const bench::testing::ProcessResult run =
      run_process(BENCH_BINARY,
                  {"--no-stream", "--no-answer-check", "--num-prompts", "4", "--concurrency", "2",
                   "--input-len", "8", "--output-len", "4", "--ignore-eos", "--fail-over",
                   "p99_ttft_ms=100000", "--fail-over", "median_e2e_latency_ms=100000", "--quiet"});
  EXPECT_EQ(run.exit_code, bench::cli::kExitGateFailed) << run.err;
  EXPECT_NE(run.err.find("p99_ttft_ms is unknown: no request was streamed (--no-stream)"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("median_e2e_latency_ms"), std::string::npos) << run.err;  // it passed
}

// The same simulated answers (reasoning, tool calls, a prefix cache; drawn alike whatever the
// delivery) count the same whole as streamed; the truth log says which was which.
TEST(NoStream, EachEndpointCountsWholeAnswersAsItsStreamsForTheSameSimulatedAnswers) {
  for (const char* endpoint : {"chat", "responses"}) {  // completions has no tools to call
    SCOPED_TRACE(endpoint);
    const EndpointRun streamed = run_endpoint(endpoint, {});
    const EndpointRun whole = run_endpoint(endpoint, {"--no-stream"});
    ASSERT_EQ(streamed.process.exit_code, 0) << streamed.process.err;
    ASSERT_EQ(whole.process.exit_code, 0) << whole.process.err;
    EXPECT_EQ(whole.results["requests_not_streamed"], 12);
    EXPECT_EQ(streamed.results["requests_not_streamed"], 0);
    ASSERT_EQ(whole.requests.size(), streamed.requests.size());
    for (std::size_t i = 0; i < whole.requests.size(); ++i) {
      const json& w = whole.requests[i];
      const json& s = streamed.requests[i];
      SCOPED_TRACE(w.dump());
      ASSERT_EQ(w["status"], "ok");
      EXPECT_EQ(w["streamed"], false);
      EXPECT_EQ(s["streamed"], true);
      for (const char* key :
           {"prompt_tokens", "completion_tokens", "reasoning_tokens", "tool_calls",
            "tool_call_names", "tool_call_tokens", "cached_prompt_tokens", "finish_reason",
            "text_bytes", "completion_token_source", "reasoning_token_source"}) {
        EXPECT_EQ(w[key], s[key]) << key;
      }
      const json& truth = whole.truth.at(w["response_id"].get<std::string>());
      EXPECT_EQ(truth["stream"], false);
      EXPECT_EQ(truth["completion_tokens"], w["completion_tokens"]);
    }
  }
}

// A multi-turn run keeps each whole answer for the next turn's history, as it keeps a stream's:
// the server sees its last reply verbatim (the truth log's hashes), and an agent's tool calls
// go back with their ids (a call the server did not make would be refused with a 400).
TEST(NoStream, TurnsSendBackTheWholeAnswersAndToolCallsTheServerGave) {
  const TempDir dir;
  const std::string tools_path = dir.file("tools.json");
  std::ofstream(tools_path)
      << R"([{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}])";
  constexpr int kResultWords = 5;
  for (const bool agent : {false, true}) {
    SCOPED_TRACE(agent ? "agent" : "conversation");
    const std::string requests_path = dir.file(agent ? "agent.jsonl" : "turns.jsonl");
    const std::string trace_path = dir.file(agent ? "agent-trace.jsonl" : "trace.jsonl");
    std::vector<std::string> args = {"--no-stream",
                                     "--multi-turn",
                                     "--turns",
                                     "3",
                                     "--num-prompts",
                                     "3",
                                     "--concurrency",
                                     "3",
                                     "--input-len",
                                     "40",
                                     "--output-len",
                                     "6",
                                     "--ignore-eos",
                                     "--sim-profile",
                                     "tiny",
                                     "--sim-time-scale",
                                     "10",
                                     "--sim-trace",
                                     trace_path,
                                     "--save-requests",
                                     requests_path,
                                     "--quiet",
                                     "--no-answer-check"};
    if (agent) {
      for (const std::string& arg :
           {std::string("--tools"), tools_path, std::string("--tool-choice"),
            std::string("required"), std::string("--tool-result-len"),
            std::to_string(kResultWords)}) {
        args.push_back(arg);
      }
    }
    const bench::testing::ProcessResult run = run_process(BENCH_BINARY, args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto turns = bench::testing::session_turns(requests_path, trace_path);
    ASSERT_EQ(turns.size(), 9u);  // 3 sessions x 3 turns
    for (const auto& [key, lines] : turns) {
      SCOPED_TRACE(lines.served.dump());
      EXPECT_EQ(lines.sent["streamed"], false);
      EXPECT_EQ(lines.served["stream"], false);
      ASSERT_EQ(lines.served["outcome"], "ok");
      if (key.second == 0) continue;
      const json& before = turns.at({key.first, key.second - 1}).served;
      if (agent) {
        EXPECT_EQ(lines.served["tool_call"], "read_file");
        // The history grew by the call (its name and arguments, as the stream's) and its result.
        EXPECT_EQ(lines.served["prompt_tokens"].get<std::int64_t>(),
                  before["prompt_tokens"].get<std::int64_t>() +
                      before["completion_tokens"].get<std::int64_t>() + 1 + kResultWords);
      } else {
        EXPECT_EQ(lines.served["last_assistant_hash"], before["reply_hash"]);
      }
    }
  }
}

}  // namespace
