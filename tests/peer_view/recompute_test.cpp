// Each tool's rules applied to hand-made requests, every expected value worked out by hand from
// the tool's source (the rules cited in src/peer_view/tool_rules.cpp). Request A: a role-only
// chunk at 1 ms, three one-token chunks at 40, 48 and 56 ms, a finish-only chunk at 57 ms, the
// stream's end at 58 ms. Request B (sent at 100 ms): a role-only chunk at 2 ms, two token chunks
// at 20 and 30 ms, the last also finishing, the end at 31 ms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/peer_view/recompute.hpp"

namespace recompute_test {

using bench::peer_view::find_tool;
using bench::peer_view::PeerView;
using bench::peer_view::recompute;
using bench::peer_view::RunFacts;
using bench::results::LoggedRequest;

LoggedRequest request_a() {
  LoggedRequest r;
  r.ok = true;
  r.start_ms = 0;
  r.e2e_ms = 58;
  r.ttft_ms = 40;
  r.chunk_arrival_ms = {40, 48, 56};
  r.first_choice_ms = 1;
  r.last_choice_ms = 57;
  r.choice_chunks = 5;
  r.prompt_tokens = 10;
  r.client_prompt_tokens = 9;
  r.completion_tokens = 3;
  r.completion_token_source = "usage";
  r.requested_output_len = 3;
  return r;
}

LoggedRequest request_b() {
  LoggedRequest r = request_a();
  r.start_ms = 100;
  r.e2e_ms = 31;
  r.ttft_ms = 20;
  r.chunk_arrival_ms = {20, 30};
  r.first_choice_ms = 2;
  r.last_choice_ms = 30;
  r.choice_chunks = 3;
  r.prompt_tokens = 20;
  r.client_prompt_tokens = 19;
  r.completion_tokens = 2;
  return r;
}

// Requests every tool leaves out: a warm-up one and a failed one.
std::vector<LoggedRequest> run_log() {
  LoggedRequest warmup = request_a();
  warmup.warmup = true;
  warmup.first_choice_ms = 0.001;
  LoggedRequest failed = request_a();
  failed.ok = false;
  failed.first_choice_ms = 0.002;
  return {warmup, request_a(), failed, request_b()};
}

std::optional<double> value(const PeerView& view, const std::string& key) {
  for (const auto& figure : view.figures) {
    if (figure.key == key) return figure.value;
  }
  ADD_FAILURE() << "no figure " << key;
  return std::nullopt;
}

const std::string& why(const PeerView& view, const std::string& key) {
  for (const auto& figure : view.figures) {
    if (figure.key == key) return figure.why;
  }
  static const std::string none;
  ADD_FAILURE() << "no figure " << key;
  return none;
}

PeerView view_of(std::string_view tool, const std::vector<LoggedRequest>& log) {
  return recompute(*find_tool(tool), log, RunFacts{.duration_s = 0.2});
}

TEST(PeerViewVllm, StampsEveryChunkWithAChoiceAndEndsAtTheLast) {
  const PeerView view = view_of("vllm", run_log());
  EXPECT_EQ(view.requests, 2);
  // TTFT: the role-only chunks, 1 and 2 ms; linear percentiles.
  EXPECT_DOUBLE_EQ(*value(view, "mean_ttft_ms"), 1.5);
  EXPECT_DOUBLE_EQ(*value(view, "median_ttft_ms"), 1.5);
  EXPECT_DOUBLE_EQ(*value(view, "p99_ttft_ms"), 1.99);
  // ITL: a gap before every chunk with a choice: A 39, 8, 8, 1; B 18, 10.
  EXPECT_DOUBLE_EQ(*value(view, "mean_itl_ms"), 14.0);
  EXPECT_DOUBLE_EQ(*value(view, "median_itl_ms"), 9.0);
  // E2EL ends at the last chunk with a choice: 57 and 30.
  EXPECT_DOUBLE_EQ(*value(view, "mean_e2el_ms"), 43.5);
  // TPOT from its own TTFT to its own end: (57 - 1) / 2 = 28, (30 - 2) / 1 = 28.
  EXPECT_DOUBLE_EQ(*value(view, "mean_tpot_ms"), 28.0);
  // Throughputs over the run's duration: 5 output tokens, 30 input (usage), 2 requests.
  EXPECT_DOUBLE_EQ(*value(view, "output_throughput"), 25.0);
  EXPECT_DOUBLE_EQ(*value(view, "total_token_throughput"), 175.0);
  EXPECT_DOUBLE_EQ(*value(view, "request_throughput"), 10.0);
  EXPECT_NE(why(view, "mean_ttft_ms").find("role-only"), std::string::npos);
  EXPECT_EQ(why(view, "output_throughput"), "");
}

TEST(PeerViewSglang, TimesTextChunksToTheStreamsEndAndCountsInputByTokenizer) {
  const PeerView view = view_of("sglang", run_log());
  EXPECT_DOUBLE_EQ(*value(view, "mean_ttft_ms"), 30.0);         // 40 and 20
  EXPECT_DOUBLE_EQ(*value(view, "mean_itl_ms"), 26.0 / 3);      // 8, 8, 10
  EXPECT_DOUBLE_EQ(*value(view, "mean_e2e_latency_ms"), 44.5);  // 58 and 31
  // TPOT = (58 - 40) / 2 = 9 and (31 - 20) / 1 = 11.
  EXPECT_DOUBLE_EQ(*value(view, "mean_tpot_ms"), 10.0);
  EXPECT_DOUBLE_EQ(*value(view, "input_throughput"), 140.0);  // 9 + 19 tokens over 0.2 s
  EXPECT_DOUBLE_EQ(*value(view, "total_throughput"), 165.0);
  EXPECT_EQ(why(view, "mean_ttft_ms"), "");  // bench's rule, without tool calls
  EXPECT_NE(why(view, "input_throughput").find("tokenizer"), std::string::npos);
}

TEST(PeerViewSglang, CountsAnAnswerWithoutUsageAtTheLengthItAsked) {
  LoggedRequest no_usage = request_a();
  no_usage.completion_token_source = "chunks_estimate";
  no_usage.requested_output_len = 16;
  const PeerView view = view_of("sglang", {no_usage});
  EXPECT_DOUBLE_EQ(*value(view, "output_throughput"), 80.0);  // 16 tokens over 0.2 s
  // TPOT = (58 - 40) / 15.
  EXPECT_DOUBLE_EQ(*value(view, "mean_tpot_ms"), 18.0 / 15);
  EXPECT_NE(why(view, "output_throughput").find("length asked"), std::string::npos);
}

TEST(PeerViewAiperf, EndsAtTheLastTokenAndDividesByFirstSendToLastToken) {
  const PeerView view = view_of("aiperf", run_log());
  EXPECT_DOUBLE_EQ(*value(view, "time_to_first_token.avg"), 30.0);
  EXPECT_DOUBLE_EQ(*value(view, "request_latency.avg"), 43.0);  // 56 and 30
  // Its ITL: (56 - 40) / 2 = 8 and (30 - 20) / 1 = 10.
  EXPECT_DOUBLE_EQ(*value(view, "inter_token_latency.avg"), 9.0);
  EXPECT_DOUBLE_EQ(*value(view, "inter_chunk_latency.avg"), 26.0 / 3);
  // First send 0 ms, last token at 100 + 30 ms: 5 tokens over 0.13 s.
  EXPECT_DOUBLE_EQ(*value(view, "output_token_throughput"), 5 / 0.13);
  EXPECT_FALSE(view.notes.empty());  // its tokenizer's count stood in for by usage, said
}

TEST(PeerViewGuidellm, WeighsPerTokenTimesAndTakesPercentilesWithoutInterpolation) {
  const PeerView view = view_of("guidellm", run_log());
  // TTFT 40 and 20: the median is the first value whose cumulative weight reaches 0.5, 20
  // (numpy's linear median would be 30).
  EXPECT_DOUBLE_EQ(*value(view, "time_to_first_token_ms.median"), 20.0);
  EXPECT_DOUBLE_EQ(*value(view, "time_to_first_token_ms.mean"), 30.0);
  // ITL (last - first token) / (tokens - 1): 8 weighing 2, 10 weighing 1.
  EXPECT_DOUBLE_EQ(*value(view, "inter_token_latency_ms.mean"), 26.0 / 3);
  EXPECT_DOUBLE_EQ(*value(view, "inter_token_latency_ms.median"), 8.0);
  // TPOT (last token - start) / tokens: 56 / 3 weighing 3, 30 / 2 weighing 2.
  EXPECT_DOUBLE_EQ(*value(view, "time_per_output_token_ms.mean"), 86.0 / 5);
  EXPECT_DOUBLE_EQ(*value(view, "request_latency.mean"), 44.5);
  for (const auto& figure : view.figures) {
    if (figure.key == "time_per_output_token_ms.mean") {
      EXPECT_TRUE(figure.bench_key.empty());
    }
  }
}

TEST(PeerViewVllm, ALogWithoutChoiceChunksLeavesItsTimesOutAndSaysSo) {
  LoggedRequest old = request_a();
  old.first_choice_ms.reset();
  old.last_choice_ms.reset();
  old.choice_chunks.reset();
  const PeerView view = view_of("vllm", {old});
  EXPECT_FALSE(value(view, "mean_ttft_ms").has_value());
  EXPECT_DOUBLE_EQ(*value(view, "output_throughput"), 15.0);  // counts are still known
  ASSERT_FALSE(view.notes.empty());
  bool said = false;
  for (const auto& note : view.notes) said |= note.find("first_choice_ms") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(PeerViewVllm, AnEmptyChunkBetweenTokensMakesItsGapsInexactAndSaysSo) {
  LoggedRequest gap = request_a();
  gap.choice_chunks = 6;  // one more chunk with a choice than the log has times for
  const PeerView view = view_of("vllm", {gap});
  bool said = false;
  for (const auto& note : view.notes) said |= note.find("merged") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(PeerViewVllm, ARoleChunkReadWithTheFirstTokenIsAGapOfZero) {
  // vLLM's own server writes the role chunk in the loop turn of the first token: one read, and
  // vLLM's client pools a gap of (nearly) 0 before the first token's chunk.
  LoggedRequest together = request_a();
  together.first_choice_ms = 40;
  together.last_choice_ms = 56;
  together.choice_chunks = 4;  // the role chunk and three tokens, the last one finishing
  const PeerView view = view_of("vllm", {together});
  EXPECT_DOUBLE_EQ(*value(view, "mean_ttft_ms"), 40.0);
  EXPECT_DOUBLE_EQ(*value(view, "mean_itl_ms"), 16.0 / 3);  // 0, 8, 8
  EXPECT_DOUBLE_EQ(*value(view, "median_itl_ms"), 8.0);
  EXPECT_EQ(view.notes.size(), 1u);  // the window only: the gaps are exact
}

TEST(PeerViewVllm, AFinishChunkReadWithTheLastTokenIsAGapOfZero) {
  LoggedRequest together = request_a();
  together.first_choice_ms = 1;
  together.last_choice_ms = 56;  // the finish-only chunk in the last token's read
  together.choice_chunks = 5;
  const PeerView view = view_of("vllm", {together});
  EXPECT_DOUBLE_EQ(*value(view, "mean_itl_ms"), 55.0 / 4);  // 39, 8, 8, 0
}

TEST(PeerViewSglang, ToolCallChunksAreSaidToBeTimedAsBenchTimesThem) {
  LoggedRequest tools = request_a();
  tools.tool_call_chunks = 2;
  const PeerView view = view_of("sglang", {tools});
  EXPECT_NE(why(view, "mean_ttft_ms").find("tool-call"), std::string::npos);
  EXPECT_EQ(view.notes.size(), 2u);  // the window, and the tool calls
}

}  // namespace recompute_test
