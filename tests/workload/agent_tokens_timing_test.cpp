// What making a recorded agent request costs with a real tokenizer (--trace-format weka
// --tokenizer FILE), on the event loop that sends it: trace_0291's largest request (101,059
// tokens: 1,579 blocks and a tail) with Llama-3's and Qwen3's tokenizer.json, its blocks made
// from nothing (a replay's first request, or blocks the kept texts dropped) and kept from the
// request before it (a replay going on, the common case), with its body as the session driver
// builds it (app/point/session_driver.cpp). The bounds are generous (a shared 2-core VM); the
// numbers printed are docs/agent-traces.md's.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>

#include "bench/protocol/openai.hpp"
#include "bench/workload/agent_history.hpp"
#include "bench/workload/agent_trace.hpp"
#include "data_dirs.hpp"
#include "real_tokenizers.hpp"

namespace agent_tokens_timing_test {

using bench::workload::AgentPrompt;
using bench::workload::AgentReplayText;
using bench::workload::AgentTrace;
using bench::workload::ResentText;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The largest request of `trace`'s root (not its first).
std::size_t largest_request(const AgentTrace& trace) {
  const auto& requests = trace.root.requests;
  std::size_t largest = 0;
  for (std::size_t k = 1; k < requests.size(); ++k) {
    if (requests[k].input_len > requests[largest].input_len) largest = k;
  }
  return largest;
}

TEST(AgentTokensTiming, TheLargestRequestOfARealTraceIsMadeWellWithinASecondOnceItsBlocksAreKept) {
  if (!bench::testing::have_npm_tokenizers()) GTEST_SKIP() << "SKIPPED: run scripts/setup --test";
  const AgentTrace trace =
      bench::workload::read_agent_traces(bench::testing::kTracesDir + "weka/trace_0291.json")
          .front();
  const std::size_t largest = largest_request(trace);
  ASSERT_EQ(trace.root.requests[largest].input_len, 101059);
  ASSERT_GT(largest, 0u);
  const auto turns = bench::workload::agent_turns(trace.root, trace.block_size);
  bench::protocol::RequestOptions request;
  request.model = "m";
  for (const std::string package : {"llama3", "qwen3"}) {
    const auto& tokenizer = bench::testing::npm_tokenizer(package);
    // What the session driver does when the request is due: its text, then its body.
    const auto body_of = [&](std::size_t k, ResentText& kept, AgentPrompt& prompt) {
      prompt = bench::workload::agent_prompt(trace, 0, k, turns[k],
                                             AgentReplayText{1, 0, 0, {&tokenizer, 0}, &kept});
      return bench::protocol::build_chat_request_body(request, prompt.history.chat_messages());
    };
    AgentPrompt cold;
    ResentText nothing_kept;
    auto start = Clock::now();
    body_of(largest, nothing_kept, cold);
    const double cold_ms = ms_since(start);
    AgentPrompt before;
    AgentPrompt kept;
    ResentText resent;
    body_of(largest - 1, resent, before);
    start = Clock::now();
    const std::string body = body_of(largest, resent, kept);
    const double kept_ms = ms_since(start);
    start = Clock::now();
    const std::string again =
        bench::protocol::build_chat_request_body(request, kept.history.chat_messages());
    const double json_ms = ms_since(start);
    EXPECT_EQ(cold.client_tokens, 101059);
    EXPECT_EQ(kept.client_tokens, 101059);
    std::cout << "[ timing ] " << package << ": trace_0291 request " << largest
              << " (101,059 tokens, a " << body.size() << "-byte body): " << cold_ms
              << " ms with nothing kept, " << kept_ms << " ms with request " << largest - 1
              << "'s blocks and counts kept (" << json_ms << " ms of it the JSON body); "
              << resent.blocks.bytes() << " bytes of block text kept\n";
    EXPECT_LT(cold_ms, 10000.0);
    EXPECT_LT(kept_ms, 1000.0);
  }
}

}  // namespace agent_tokens_timing_test
