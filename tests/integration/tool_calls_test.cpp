// Tool calls end to end (issue 31): bench sends --tools/--tool-choice/--response-format in every
// chat request, the simulator answers a share of them with a streamed tool call
// (--tool-call-fraction), and bench's tool-call figures match the simulator's truth log request
// by request. Bad tool input is one line and exit 2, with nothing sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "usage_errors.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::TempDir;
using bench::testing::without_answer_check;
using nlohmann::json;

constexpr const char* kTools =
    R"([{"type":"function","function":{"name":"get_weather","description":"Weather now",)"
    R"("parameters":{"type":"object","properties":{"city":{"type":"string"}}}}},)"
    R"({"type":"function","function":{"name":"search","parameters":{"type":"object"}}}])";

std::string write_file(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

bench::sim::SimOptions fast_sim(double tool_call_fraction, const std::string& trace_path) {
  bench::sim::SimOptions options;
  options.ttft_ms = 20;
  options.tpot_ms = 5;
  options.time_scale = 10;
  options.tool_call_fraction = tool_call_fraction;
  options.trace_path = trace_path;
  return options;
}

struct ToolRun {
  ProcessResult process;
  json results;
  std::vector<json> requests;
  std::map<std::string, json> truth;  // by response id
};

ToolRun run_with_tools(double fraction, const std::vector<std::string>& extra) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  ToolRun run;
  {
    bench::sim::SimServer server(fast_sim(fraction, trace_path));
    std::vector<std::string> args = {"--base-url",
                                     server.base_url(),
                                     "--endpoint",
                                     "chat",
                                     "--concurrency",
                                     "4",
                                     "--num-prompts",
                                     "16",
                                     "--input-len",
                                     "16",
                                     "--output-len",
                                     "12",
                                     "--ignore-eos",
                                     "--seed",
                                     "7",
                                     "--tools",
                                     write_file(dir, "tools.json", kTools),
                                     "--save-requests",
                                     requests_path,
                                     "--output-format",
                                     "json",
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    run.process = run_process(BENCH_BINARY, without_answer_check(args));
  }  // the server is gone: its truth log is complete
  if (run.process.exit_code != 0) return run;
  run.results = json::parse(run.process.out);
  run.requests = read_jsonl(requests_path);
  for (json& record : read_jsonl(trace_path)) run.truth[record["id"].get<std::string>()] = record;
  return run;
}

TEST(ToolCalls, CountsAndNamesMatchTheTruthLogRequestByRequest) {
  const ToolRun run = run_with_tools(0.5, {});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  std::int64_t calls = 0, tool_tokens = 0, output_tokens = 0;
  for (const json& request : run.requests) {
    SCOPED_TRACE(request.dump());
    ASSERT_EQ(request["status"], "ok");
    const json& server = run.truth.at(request["response_id"].get<std::string>());
    output_tokens += server["completion_tokens"].get<std::int64_t>();
    if (server["tool_call"].is_null()) {
      EXPECT_EQ(request["tool_calls"], 0);
      EXPECT_EQ(request["tool_call_tokens"], 0);
      continue;
    }
    ++calls;
    tool_tokens += server["tool_call_tokens"].get<std::int64_t>();
    EXPECT_EQ(request["tool_calls"], 1);
    EXPECT_EQ(request["tool_call_names"], json::array({server["tool_call"]}));
    EXPECT_EQ(request["tool_call_tokens"], server["tool_call_tokens"]);
    EXPECT_EQ(request["tool_call_token_source"], "usage");
    // The first token is the call's first fragment, as the server sent it.
    EXPECT_GT(request["ttft_ms"].get<double>(), 0.0);
    EXPECT_TRUE(request["ttfa_ms"].is_null());
  }
  // A fair share of 16 draws at 0.5 (the seed fixes them): some of each kind.
  ASSERT_GT(calls, 0);
  ASSERT_LT(calls, 16);
  EXPECT_EQ(run.results["requests_with_tool_calls"], calls);
  EXPECT_EQ(run.results["total_tool_calls"], calls);
  EXPECT_EQ(run.results["total_tool_call_tokens"], tool_tokens);
  EXPECT_EQ(run.results["total_output_tokens"], output_tokens);  // output stays every token
  EXPECT_DOUBLE_EQ(run.results["tool_call_output_share"].get<double>(),
                   static_cast<double>(tool_tokens) / static_cast<double>(output_tokens));
  EXPECT_EQ(run.results["token_count_source"]["tool_calls"], "usage");
}

TEST(ToolCalls, ToolChoiceRequiredAndNamedForceTheCallAndNoneForbidsIt) {
  const ToolRun required = run_with_tools(0.0, {"--tool-choice", "required"});
  ASSERT_EQ(required.process.exit_code, 0) << required.process.err;
  EXPECT_EQ(required.results["requests_with_tool_calls"], 16);
  const ToolRun named = run_with_tools(0.0, {"--tool-choice", "search"});
  ASSERT_EQ(named.process.exit_code, 0) << named.process.err;
  for (const json& request : named.requests) {
    EXPECT_EQ(request["tool_call_names"], json::array({"search"})) << request.dump();
  }
  const ToolRun none = run_with_tools(1.0, {"--tool-choice", "none"});
  ASSERT_EQ(none.process.exit_code, 0) << none.process.err;
  EXPECT_EQ(none.results["requests_with_tool_calls"], 0);
  EXPECT_TRUE(none.results["total_tool_call_tokens"].is_null());
}

TEST(ToolCalls, BadToolInputIsOneLineAndExitTwoWithNothingSent) {
  TempDir dir;
  const std::string tools = write_file(dir, "tools.json", kTools);
  const bench::testing::UsageErrorCases cases = {
      {{"--tools", write_file(dir, "bad.json", "{not json")}, "--tools: '"},
      {{"--tools", write_file(dir, "object.json", R"({"type":"function"})")},
       "non-empty JSON array"},
      {{"--tools", write_file(dir, "unnamed.json", R"([{"type":"function","function":{}}])")},
       "tool 0"},
      {{"--tools", dir.file("missing.json")}, "cannot be read"},
      {{"--tools", tools, "--tool-choice", "get_time"}, "--tool-choice: 'get_time'"},
      {{"--tool-choice", "auto"}, "--tool-choice: 'auto' needs --tools"},
      {{"--tools", tools, "--endpoint", "completions"}, "--tools: applies to --endpoint chat"},
      {{"--response-format", R"({"type":"json_schema"})"}, "--response-format"},
      {{"--response-format", "{oops"}, "--response-format: the value is not a JSON object"},
      {{"--response-format", R"({"type":"text"})", "--endpoint", "completions"},
       "--response-format: applies to --endpoint chat"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace
