// An answer made only of a tool call (the first turn of an agent), through the real bench
// binary: a server sends the role chunk at once, then OpenAI-shaped delta.tool_calls fragments
// (id, type and function name first, then argument fragments) from 100 ms on, one every 20 ms,
// and finish_reason "tool_calls". The first token is the first tool-call delta, so TTFT is about
// 100 ms, never the role chunk's 0 ms, and the fragments give chunk gaps of about 20 ms (issue
// 31: bench used to report a median TTFT of 0.0 ms, later none, and no ITL).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::http_head;
using bench::testing::read_jsonl;
using bench::testing::run_process;
using bench::testing::sse_event;
using bench::testing::TempDir;
using bench::testing::without_answer_check;
using nlohmann::json;

constexpr auto kToolCallDelay = std::chrono::milliseconds(100);
constexpr auto kFragmentGap = std::chrono::milliseconds(20);

std::string tool_chunk(const std::string& delta, const std::string& finish = "null") {
  return sse_event(R"({"id":"chatcmpl-tool","object":"chat.completion.chunk","created":1,)"
                   R"("model":"tool","choices":[{"index":0,"delta":)" +
                   delta + R"(,"finish_reason":)" + finish + "}]}");
}

// OpenAI's shape (API reference, chat streaming): the call's first fragment names it, the
// others carry its arguments.
void tool_call_answer(Exchange& exchange) {
  const std::vector<std::string> fragments = {
      R"({"tool_calls":[{"index":0,"id":"call_1","type":"function",)"
      R"("function":{"name":"get_weather","arguments":""}}]})",
      R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]})",
      R"({"tool_calls":[{"index":0,"function":{"arguments":"ty\": \"Par"}}]})",
      R"({"tool_calls":[{"index":0,"function":{"arguments":"is\"}"}}]})",
  };
  if (!exchange.send(http_head(200, "text/event-stream"))) return;
  if (!exchange.send(tool_chunk(R"({"role":"assistant","content":""})"))) return;
  if (!exchange.pause(kToolCallDelay)) return;
  for (std::size_t i = 0; i < fragments.size(); ++i) {
    if (i > 0 && !exchange.pause(kFragmentGap)) return;
    if (!exchange.send(tool_chunk(fragments[i]))) return;
  }
  if (!exchange.send(tool_chunk("{}", R"("tool_calls")"))) return;
  exchange.send(
      sse_event(
          R"({"id":"chatcmpl-tool","object":"chat.completion.chunk","created":1,"model":"tool",)"
          R"("choices":[],"usage":{"prompt_tokens":20,"completion_tokens":12,"total_tokens":32}})") +
      sse_event("[DONE]"));
}

TEST(ToolCallTiming, TtftIsTheFirstToolCallDeltaAndItlTheFragmentGaps) {
  HostileServer server(tool_call_answer);
  TempDir dir;
  const std::string requests_path = dir.file("requests.jsonl");
  const auto run = run_process(
      BENCH_BINARY,
      without_answer_check({"--base-url", server.base_url(), "--model", "tool", "--endpoint",
                            "chat", "--num-prompts", "3", "--concurrency", "1", "--input-len", "8",
                            "--output-len", "16", "--save-requests", requests_path,
                            "--output-format", "json", "--quiet"}));
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(run.out);
  ASSERT_EQ(results["completed"], 3);
  // The server waited 100 ms before the first fragment: TTFT cannot be less.
  ASSERT_TRUE(results["median_ttft_ms"].is_number()) << results.dump();
  EXPECT_GE(results["median_ttft_ms"].get<double>(), 100.0);
  EXPECT_LT(results["median_ttft_ms"].get<double>(), 100.0 + 80.0);
  // Four fragments 20 ms apart: three chunk gaps of about 20 ms each (ICL). Usage says 12
  // tokens came in the 4 chunks, so ITL splits each gap over 3 tokens.
  ASSERT_TRUE(results["median_icl_ms"].is_number()) << results.dump();
  EXPECT_GE(results["median_icl_ms"].get<double>(), 19.0);
  EXPECT_LT(results["median_icl_ms"].get<double>(), 20.0 + 40.0);
  ASSERT_TRUE(results["median_itl_ms"].is_number()) << results.dump();
  EXPECT_GE(results["median_itl_ms"].get<double>(), 19.0 / 3);
  EXPECT_LT(results["median_itl_ms"].get<double>(), (20.0 + 40.0) / 3);
  ASSERT_TRUE(results["median_tpot_ms"].is_number()) << results.dump();
  EXPECT_EQ(results["total_tool_call_tokens"], 36);
  for (const json& request : read_jsonl(requests_path)) {
    SCOPED_TRACE(request.dump());
    EXPECT_GE(request["ttft_ms"].get<double>(), 100.0);
    EXPECT_EQ(request["finish_reason"], "tool_calls");
  }
}

}  // namespace
