// Speculative decoding's acceptance over a window, in each family's names: vLLM's and
// llama.cpp's counters give accepted / drafted over the window; SGLang gives only gauges, read at
// the window's closing scrape. A server without speculative decoding has no acceptance at all.
#include <string>

#include <gtest/gtest.h>

#include "bench/server_metrics/snapshot.hpp"

namespace {

using bench::server_metrics::Delta;
using bench::server_metrics::delta_between;
using bench::server_metrics::parse_exposition;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::Snapshot;
using bench::server_metrics::spec_acceptance_rate;
using bench::server_metrics::sum_of;

Snapshot scrape(const std::string& body) {
  const auto result = parse_exposition(body);
  EXPECT_TRUE(result.ok()) << result.error->describe();
  return read_snapshot(result.exposition);
}

std::string vllm_spec(int drafted, int accepted) {
  return "vllm:num_requests_running{engine=\"0\"} 0\n"
         "vllm:spec_decode_num_drafts_total{engine=\"0\"} 10\n"
         "vllm:spec_decode_num_draft_tokens_total{engine=\"0\"} " +
         std::to_string(drafted) +
         "\n"
         "vllm:spec_decode_num_accepted_tokens_total{engine=\"0\"} " +
         std::to_string(accepted) + "\n";
}

TEST(SpecDecode, VllmAcceptanceIsAcceptedOverDraftedGrowth) {
  const Delta delta = delta_between(scrape(vllm_spec(100, 40)), scrape(vllm_spec(900, 640)));
  EXPECT_EQ(delta.spec_draft_tokens, 800);
  EXPECT_EQ(delta.spec_accepted_tokens, 600);
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(delta), 0.75);
}

TEST(SpecDecode, LlamaCppDraftCountersAreRead) {
  const auto body = [](int drafted, int accepted) {
    return "llamacpp:prompt_tokens_total 10\n"
           "llamacpp:tokens_drafted_total " +
           std::to_string(drafted) +
           "\n"
           "llamacpp:tokens_drafted_accepted_total " +
           std::to_string(accepted) + "\n";
  };
  const Delta delta = delta_between(scrape(body(0, 0)), scrape(body(50, 20)));
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(delta), 0.4);
}

TEST(SpecDecode, SglangGaugesAreTheClosingScrapes) {
  const Delta delta = delta_between(scrape("sglang:spec_accept_length{tp_rank=\"0\"} 1.2\n"
                                           "sglang:spec_accept_rate{tp_rank=\"0\"} 0.1\n"),
                                    scrape("sglang:spec_accept_length{tp_rank=\"0\"} 2.9\n"
                                           "sglang:spec_accept_rate{tp_rank=\"0\"} 0.55\n"));
  EXPECT_EQ(delta.spec_accept_length, 2.9);
  EXPECT_FALSE(delta.spec_draft_tokens.has_value());
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(delta), 0.55);
}

// TensorRT-LLM (tensorrt_llm/metrics/collector.py): the iteration-level counters, and the
// per-request ones (a series per token position) where those are all it writes.
TEST(SpecDecode, TrtllmCountersAndAcceptanceLengthAreRead) {
  const auto iteration = [](int drafted, int accepted) {
    return "trtllm_num_requests_running{model_name=\"m\",engine_type=\"trtllm\"} 0\n"
           "trtllm_spec_decode_num_draft_tokens_total{model_name=\"m\"} " +
           std::to_string(drafted) + "\n" +
           "trtllm_spec_decode_num_accepted_tokens_total{model_name=\"m\"} " +
           std::to_string(accepted) + "\n" +
           "trtllm_spec_decode_acceptance_length{model_name=\"m\"} 2.5\n";
  };
  const Delta delta = delta_between(scrape(iteration(10, 5)), scrape(iteration(410, 305)));
  EXPECT_EQ(delta.family, bench::server_metrics::ServerFamily::trtllm);
  EXPECT_EQ(delta.spec_draft_tokens, 400);
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(delta), 0.75);
  EXPECT_EQ(delta.spec_accept_length, 2.5);

  const auto per_request = [](int drafted, int accepted) {
    return "trtllm_request_success_total{finished_reason=\"stop\"} 1\n"
           "trtllm_spec_decode_drafted_tokens_total{token_position=\"0\"} " +
           std::to_string(drafted) + "\n" +
           "trtllm_spec_decode_drafted_tokens_total{token_position=\"1\"} " +
           std::to_string(drafted) + "\n" +
           "trtllm_spec_decode_accepted_tokens_total{token_position=\"0\"} " +
           std::to_string(accepted) + "\n";
  };
  const Delta positions = delta_between(scrape(per_request(0, 0)), scrape(per_request(50, 40)));
  EXPECT_EQ(positions.spec_draft_tokens, 100);
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(positions), 0.4);
}

TEST(SpecDecode, AbsentWithoutSpeculativeDecodingOrDrafts) {
  const Delta none = delta_between(scrape("vllm:num_requests_running 0\n"),
                                   scrape("vllm:num_requests_running 1\n"));
  EXPECT_FALSE(spec_acceptance_rate(none).has_value());
  EXPECT_TRUE(none.notes.empty());
  const Delta idle = delta_between(scrape(vllm_spec(100, 40)), scrape(vllm_spec(100, 40)));
  EXPECT_FALSE(spec_acceptance_rate(idle).has_value());  // nothing drafted: no rate, not 0
}

TEST(SpecDecode, SeveralServersAddCountersAndAverageGauges) {
  Delta a;
  a.spec_draft_tokens = 100;
  a.spec_accepted_tokens = 50;
  a.spec_accept_length = 2.0;
  Delta b;
  b.spec_draft_tokens = 300;
  b.spec_accepted_tokens = 250;
  b.spec_accept_length = 3.0;
  const Delta total = sum_of({a, b});
  EXPECT_DOUBLE_EQ(*spec_acceptance_rate(total), 0.75);
  EXPECT_DOUBLE_EQ(*total.spec_accept_length, 2.5);
}

}  // namespace
