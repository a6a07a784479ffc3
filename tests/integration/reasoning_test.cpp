// A reasoning model, simulated (--reasoning-tokens): bench's split of each response into
// reasoning and answer tokens, and its TTFA, against the simulator's truth log, request by
// request; and a run without reasoning reports no reasoning figures (null, not 0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

// A short chat run against `server`: 12 requests of 16 tokens, 4 at a time.
ProcessResult run_chat(const bench::sim::SimServer& server, const std::string& requests_path) {
  return run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--endpoint", "chat",
                                    "--concurrency", "4", "--num-prompts", "12", "--input-len",
                                    "16", "--output-len", "16", "--ignore-eos", "--save-requests",
                                    requests_path, "--output-format", "json", "--quiet"});
}

bench::sim::SimOptions fast_fixed() {
  bench::sim::SimOptions options;
  options.ttft_ms = 50;
  options.tpot_ms = 10;
  options.time_scale = 10;  // 5 ms to the first token, 1 ms per token after it
  return options;
}

TEST(Reasoning, SplitAndTtfaMatchTheTruthLogRequestByRequest) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  json results;
  {
    bench::sim::SimOptions options = fast_fixed();
    options.reasoning_tokens = 10;
    options.reasoning_fraction = 0.5;
    options.trace_path = trace_path;
    bench::sim::SimServer server(options);
    const ProcessResult run = run_chat(server, requests_path);
    ASSERT_FALSE(run.timed_out);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    results = json::parse(run.out);
  }  // the server is gone: its trace is complete

  std::map<std::string, json> truth;
  for (json& record : read_jsonl(trace_path)) truth[record["id"].get<std::string>()] = record;

  std::int64_t reasoning_sum = 0, answer_sum = 0, reasoned = 0;
  for (const json& request : read_jsonl(requests_path)) {
    SCOPED_TRACE(request.dump());
    ASSERT_EQ(request["status"], "ok");
    const json& server = truth.at(request["response_id"].get<std::string>());
    const std::int64_t reasoning = server["reasoning_tokens"];
    EXPECT_EQ(request["reasoning_tokens"], reasoning);
    EXPECT_EQ(request["reasoning_token_source"], "usage");
    EXPECT_EQ(request["answer_tokens"],
              server["completion_tokens"].get<std::int64_t>() - reasoning);
    // TTFA: the server's first answer chunk, seen from the client. TTFT stays the first token
    // of any kind, so with reasoning TTFA is the arrival of the chunk after the reasoning ones
    // (ten tokens, 10 ms, later on an idle machine; a loaded one may deliver them together).
    const double server_ttfa_ms =
        static_cast<double>(server["first_answer_ns"].get<std::int64_t>() -
                            server["arrival_ns"].get<std::int64_t>()) /
        1e6;
    EXPECT_NEAR(request["ttfa_ms"].get<double>(), server_ttfa_ms, 10.0);
    if (reasoning > 0) {
      ++reasoned;
      const json& arrivals = request["chunk_arrival_ms"];
      const auto first_answer = request["reasoning_chunks"].get<std::size_t>();
      ASSERT_LT(first_answer, arrivals.size());
      EXPECT_EQ(request["ttfa_ms"], arrivals[first_answer]);
      EXPECT_GE(request["ttfa_ms"].get<double>(), request["ttft_ms"].get<double>());
    } else {
      EXPECT_EQ(request["ttfa_ms"], request["ttft_ms"]);
    }
    reasoning_sum += reasoning;
    answer_sum += request["answer_tokens"].get<std::int64_t>();
  }
  ASSERT_GT(reasoned, 0) << "the fraction's draw left no request reasoning: pick another seed";
  EXPECT_EQ(results["requests_with_reasoning"], reasoned);
  EXPECT_EQ(results["total_reasoning_tokens"], reasoning_sum);
  EXPECT_EQ(results["total_answer_tokens"], answer_sum);
  EXPECT_EQ(results["total_output_tokens"], reasoning_sum + answer_sum);
  EXPECT_NEAR(results["reasoning_output_throughput"].get<double>() +
                  results["answer_output_throughput"].get<double>(),
              results["output_throughput"].get<double>(), 1e-6);
  EXPECT_EQ(results["token_count_source"]["reasoning"], "usage");
  EXPECT_GT(results["mean_ttfa_ms"].get<double>(), results["mean_ttft_ms"].get<double>());
}

TEST(Reasoning, ARunWithoutReasoningReportsNoReasoningFigures) {
  TempDir dir;
  bench::sim::SimServer server(fast_fixed());
  const ProcessResult run = run_chat(server, dir.file("requests.jsonl"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  EXPECT_EQ(results["requests_with_reasoning"], 0);
  for (const char* key :
       {"total_reasoning_tokens", "total_answer_tokens", "reasoning_output_throughput",
        "answer_output_throughput", "mean_reasoning_tokens", "mean_answer_tokens", "mean_ttfa_ms",
        "p99_ttfa_ms"}) {
    EXPECT_TRUE(results[key].is_null()) << key << " = " << results[key];
  }
  EXPECT_TRUE(results["token_count_source"]["reasoning"].is_null());

  const ProcessResult text =
      run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--endpoint", "chat",
                                 "--num-prompts", "2", "--output-len", "4"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("TTFA"), std::string::npos);
  EXPECT_EQ(text.out.find("(reasoning)"), std::string::npos);
}

TEST(Reasoning, TheTextReportShowsReasoningAndAnswerOutputBesideTheOutput) {
  bench::sim::SimOptions options = fast_fixed();
  options.reasoning_tokens = 3;
  options.reasoning_field = bench::sim::ReasoningField::reasoning;
  bench::sim::SimServer server(options);
  const ProcessResult run =
      run_process(BENCH_BINARY, {"--base-url", server.base_url(), "--endpoint", "chat",
                                 "--num-prompts", "2", "--output-len", "5", "--ignore-eos"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("output tok/s (reasoning)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("output tok/s (answer)"), std::string::npos);
  EXPECT_NE(run.out.find("TTFA"), std::string::npos);
  EXPECT_NE(run.out.find("6 + 4 (from server usage)"), std::string::npos) << run.out;
}

}  // namespace
