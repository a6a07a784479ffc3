// summarize_run over hand-built records: every expected figure is worked out from the
// definitions in docs/metrics.md. Times are chosen in whole milliseconds.
#include "bench/metrics/run_summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/metrics/percentile.hpp"
#include "bench/util/clock.hpp"

namespace {

using bench::metrics::CacheDisclosure;
using bench::metrics::ErrorClass;
using bench::metrics::RequestRecord;
using bench::metrics::RunSummary;
using bench::metrics::summarize_run;
using bench::metrics::TokenSource;

using bench::kNsPerMs;

// A successful request that started at start_ms, received its text chunks at chunk_ms and
// ended at end_ms, with usage-reported token counts.
RequestRecord completed(std::int64_t start_ms, std::vector<std::int64_t> chunk_ms,
                        std::int64_t end_ms, std::int64_t prompt_tokens,
                        std::int64_t completion_tokens) {
  RequestRecord record;
  record.intended_start_ns = start_ms * kNsPerMs;
  record.start_ns = start_ms * kNsPerMs;
  for (std::int64_t ms : chunk_ms) record.text_chunk_ns.push_back(ms * kNsPerMs);
  record.first_token_ns = record.text_chunk_ns.empty() ? -1 : record.text_chunk_ns.front();
  record.end_ns = end_ms * kNsPerMs;
  record.prompt_tokens = prompt_tokens;
  record.completion_tokens = completion_tokens;
  record.prompt_token_source = TokenSource::usage;
  record.completion_token_source = TokenSource::usage;
  record.finish_reason = "stop";
  record.saw_done = true;
  return record;
}

RequestRecord failed(std::int64_t start_ms, std::int64_t end_ms, ErrorClass error,
                     std::string message) {
  RequestRecord record;
  record.intended_start_ns = start_ms * kNsPerMs;
  record.start_ns = start_ms * kNsPerMs;
  record.end_ns = end_ms * kNsPerMs;
  record.error = error;
  record.error_message = std::move(message);
  return record;
}

TEST(SummarizeRun, EmptyRunIsAllZeros) {
  const RunSummary s = summarize_run({});
  EXPECT_EQ(s.sent, 0);
  EXPECT_EQ(s.completed, 0);
  EXPECT_EQ(s.duration_s, 0);
  EXPECT_EQ(s.output_throughput, 0);
  EXPECT_EQ(s.input_throughput, 0);
  EXPECT_EQ(s.total_throughput, 0);
  EXPECT_EQ(s.request_throughput, 0);
  EXPECT_EQ(s.achieved_concurrency, 0);
  EXPECT_EQ(s.ttft_ms.count, 0);
  // Means of no values are unknown, not 0.
  EXPECT_FALSE(s.mean_prompt_tokens.has_value());
  EXPECT_FALSE(s.mean_requested_input_len.has_value());
  EXPECT_FALSE(s.mean_completion_tokens.has_value());
  EXPECT_TRUE(s.errors.empty());
}

TEST(SummarizeRun, ExcludesWarmupRequestsFromEveryFigure) {
  std::vector<RequestRecord> records;
  RequestRecord warmup = completed(-5000, {-4000, -3000}, 9000, 999, 999);
  warmup.warmup = true;
  records.push_back(warmup);
  RequestRecord warmup_failure = failed(-5000, 9500, ErrorClass::http_5xx, "warm-up failure");
  warmup_failure.warmup = true;
  records.push_back(warmup_failure);
  records.push_back(completed(0, {100, 200}, 1000, 10, 2));

  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.warmup_requests, 2);
  EXPECT_EQ(s.sent, 1);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.failed, 0);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_DOUBLE_EQ(s.duration_s, 1.0);
  EXPECT_EQ(s.total_input_tokens, 10);
  EXPECT_EQ(s.total_output_tokens, 2);
  EXPECT_EQ(s.ttft_ms.count, 1);
  EXPECT_DOUBLE_EQ(s.ttft_ms.max, 100);
  EXPECT_EQ(s.total_text_chunks, 2);
}

TEST(SummarizeRun, DurationRunsFromFirstMeasuredStartToLastMeasuredEnd) {
  std::vector<RequestRecord> records = {
      completed(500, {600}, 1500, 1, 1), completed(200, {300}, 900, 1, 1),
      failed(1000, 2700, ErrorClass::stall, "stalled"),  // failed requests still ended
  };
  EXPECT_DOUBLE_EQ(summarize_run(records).duration_s, 2.5);
}

TEST(SummarizeRun, ThroughputsAreTotalsOverDuration) {
  std::vector<RequestRecord> records = {
      completed(0, {100}, 1000, 100, 10),
      completed(500, {700}, 2000, 200, 30),
  };
  const RunSummary s = summarize_run(records);
  ASSERT_DOUBLE_EQ(s.duration_s, 2.0);
  EXPECT_EQ(s.total_input_tokens, 300);
  EXPECT_EQ(s.total_output_tokens, 40);
  EXPECT_DOUBLE_EQ(s.output_throughput, 40 / s.duration_s);
  EXPECT_DOUBLE_EQ(s.input_throughput, 300 / s.duration_s);
  EXPECT_DOUBLE_EQ(s.request_throughput, 2 / s.duration_s);
  EXPECT_DOUBLE_EQ(s.output_throughput, 20);
  EXPECT_DOUBLE_EQ(s.input_throughput, 150);
  EXPECT_DOUBLE_EQ(s.request_throughput, 1);
}

TEST(SummarizeRun, TotalThroughputIsInputPlusOutput) {
  std::vector<RequestRecord> records = {
      completed(0, {10}, 3000, 1234, 77),
      completed(10, {40}, 2900, 4321, 55),
  };
  const RunSummary s = summarize_run(records);
  EXPECT_DOUBLE_EQ(s.total_throughput, s.input_throughput + s.output_throughput);
  EXPECT_DOUBLE_EQ(s.total_throughput, (1234 + 4321 + 77 + 55) / 3.0);
}

TEST(SummarizeRun, FailedRequestsAddNoTokensButCountTowardsDuration) {
  RequestRecord partial = failed(0, 4000, ErrorClass::truncated, "stream ended early");
  partial.text_chunk_ns = {100 * kNsPerMs, 200 * kNsPerMs};
  partial.first_token_ns = 100 * kNsPerMs;
  partial.completion_tokens = 2;
  partial.completion_token_source = TokenSource::chunks;
  std::vector<RequestRecord> records = {completed(0, {50}, 1000, 100, 10), partial};

  const RunSummary s = summarize_run(records);
  EXPECT_DOUBLE_EQ(s.duration_s, 4.0);
  EXPECT_EQ(s.total_output_tokens, 10);
  EXPECT_DOUBLE_EQ(s.output_throughput, 2.5);
  EXPECT_EQ(s.ttft_ms.count, 1);
  EXPECT_EQ(s.icl_ms.count, 0);
  EXPECT_EQ(s.total_text_chunks, 1);
}

TEST(SummarizeRun, CountsAndClassifiesFailedAndCancelledRequests) {
  std::vector<RequestRecord> records = {
      completed(0, {10}, 100, 5, 1),
      completed(0, {10}, 100, 5, 1),
      failed(0, 50, ErrorClass::http_5xx, "upstream overloaded"),
      failed(0, 50, ErrorClass::http_5xx, "upstream overloaded"),
      failed(0, 50, ErrorClass::http_5xx, "worker died"),
      failed(0, 60, ErrorClass::stall, ""),
      failed(0, 70, ErrorClass::cancelled, "interrupted"),
  };
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.sent, 7);
  EXPECT_EQ(s.completed, 2);
  EXPECT_EQ(s.failed, 4);
  EXPECT_EQ(s.cancelled, 1);
  EXPECT_EQ(s.sent, s.completed + s.failed + s.cancelled);

  ASSERT_EQ(s.errors.size(), 3u);
  EXPECT_EQ(s.errors.at(ErrorClass::http_5xx).count, 3);
  EXPECT_EQ(s.errors.at(ErrorClass::http_5xx).samples,
            (std::vector<std::string>{"upstream overloaded", "worker died"}));
  EXPECT_EQ(s.errors.at(ErrorClass::stall).count, 1);
  EXPECT_TRUE(s.errors.at(ErrorClass::stall).samples.empty());
  EXPECT_EQ(s.errors.at(ErrorClass::cancelled).count, 1);
  EXPECT_EQ(s.errors.at(ErrorClass::cancelled).samples, (std::vector<std::string>{"interrupted"}));
  EXPECT_EQ(s.errors.count(ErrorClass::none), 0u);
}

TEST(SummarizeRun, KeepsAtMostThreeDistinctErrorSamples) {
  std::vector<RequestRecord> records;
  for (const char* message : {"a", "b", "a", "c", "d", "e"}) {
    records.push_back(failed(0, 10, ErrorClass::transport, message));
  }
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.errors.at(ErrorClass::transport).count, 6);
  EXPECT_EQ(s.errors.at(ErrorClass::transport).samples, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(bench::metrics::kMaxErrorSamples, 3u);
}

TEST(SummarizeRun, ComputesTtftTpotAndE2ePerRequest) {
  std::vector<RequestRecord> records = {
      // TTFT 50, E2E 250, TPOT (250 - 50) / (5 - 1) = 50.
      completed(100, {150, 200, 250, 300, 350}, 350, 10, 5),
      // TTFT 30, E2E 110, TPOT (110 - 30) / (3 - 1) = 40.
      completed(1000, {1030, 1060, 1090}, 1110, 10, 3),
      // A single token: TTFT and E2E, no TPOT.
      completed(2000, {2070}, 2080, 10, 1),
  };
  const RunSummary s = summarize_run(records);

  EXPECT_EQ(s.ttft_ms.count, 3);
  EXPECT_DOUBLE_EQ(s.ttft_ms.min, 30);
  EXPECT_DOUBLE_EQ(s.ttft_ms.median, 50);
  EXPECT_DOUBLE_EQ(s.ttft_ms.max, 70);
  EXPECT_DOUBLE_EQ(s.ttft_ms.mean, 50);

  EXPECT_EQ(s.e2e_ms.count, 3);
  EXPECT_DOUBLE_EQ(s.e2e_ms.min, 80);
  EXPECT_DOUBLE_EQ(s.e2e_ms.median, 110);
  EXPECT_DOUBLE_EQ(s.e2e_ms.max, 250);

  ASSERT_EQ(s.tpot_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.tpot_ms.min, 40);  // (110 - 30) / 2
  EXPECT_DOUBLE_EQ(s.tpot_ms.max, 50);  // (250 - 50) / 4
}

TEST(SummarizeRun, TimeToHeadersCountsTheRequestsThatSaidIt) {
  std::vector<RequestRecord> records = {completed(0, {50}, 60, 10, 1),
                                        completed(100, {180}, 190, 10, 1),
                                        completed(200, {230}, 240, 10, 1)};
  records[0].response_headers_ns = 2 * kNsPerMs;   // admitted at once, 48 ms to the token
  records[1].response_headers_ns = 70 * kNsPerMs;  // queued before its headers
  // records[2] never said (no response headers seen): not counted, not 0.
  RequestRecord refused = failed(300, 310, ErrorClass::http_5xx, "HTTP 503");
  refused.response_headers_ns = 5 * kNsPerMs;  // a failure's headers are not an admission
  records.push_back(refused);
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.ttfb_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.ttfb_ms.mean, 36);
  EXPECT_DOUBLE_EQ(s.ttfb_ms.max, 70);
}

TEST(SummarizeRun, TimeToSecondTokenIsTheGapBetweenTheFirstTwoChunks) {
  // AIPerf's TTST: second token-carrying chunk - first, not from the request's start; a
  // request with one chunk has none (not 0).
  const std::vector<RequestRecord> records = {completed(0, {50, 80, 90}, 95, 10, 3),
                                              completed(100, {130, 200}, 210, 10, 2),
                                              completed(300, {340}, 345, 10, 1)};
  const RunSummary s = summarize_run(records);
  ASSERT_EQ(s.ttst_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.ttst_ms.min, 30);  // 80 - 50
  EXPECT_DOUBLE_EQ(s.ttst_ms.max, 70);  // 200 - 130
}

TEST(SummarizeRun, RequestWithoutTextHasE2eButNoTtft) {
  std::vector<RequestRecord> records = {completed(0, {}, 40, 10, 0)};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.completed, 1);
  EXPECT_EQ(s.ttft_ms.count, 0);
  EXPECT_EQ(s.ttft_from_intended_ms.count, 0);
  EXPECT_EQ(s.tpot_ms.count, 0);
  EXPECT_EQ(s.e2e_ms.count, 1);
  EXPECT_DOUBLE_EQ(s.e2e_ms.max, 40);
}

TEST(SummarizeRun, ItlEqualsIclWhenEachChunkCarriesOneToken) {
  std::vector<RequestRecord> records = {completed(0, {100, 110, 130, 160}, 160, 8, 4)};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.icl_ms.count, 3);  // gaps 10, 20, 30
  EXPECT_DOUBLE_EQ(s.icl_ms.min, 10);
  EXPECT_DOUBLE_EQ(s.icl_ms.median, 20);
  EXPECT_DOUBLE_EQ(s.icl_ms.max, 30);
  EXPECT_EQ(s.itl_ms.count, s.icl_ms.count);
  EXPECT_DOUBLE_EQ(s.itl_ms.mean, s.icl_ms.mean);
  EXPECT_DOUBLE_EQ(s.itl_ms.p99, s.icl_ms.p99);
  EXPECT_FALSE(s.chunks_differ_from_tokens);
  EXPECT_FALSE(s.itl_estimated);
  EXPECT_EQ(s.total_text_chunks, 4);
}

TEST(SummarizeRun, SplitsEachGapExactlyOverThePerChunkTokenCounts) {
  // Gaps 10 and 30; the last chunk carried 3 tokens, so its gap becomes three gaps of 10.
  RequestRecord record = completed(0, {10, 20, 50}, 50, 8, 5);
  record.text_chunk_tokens = {1, 1, 3};
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_EQ(s.icl_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.icl_ms.max, 30);
  EXPECT_EQ(s.itl_ms.count, 4);
  EXPECT_DOUBLE_EQ(s.itl_ms.min, 10);
  EXPECT_DOUBLE_EQ(s.itl_ms.max, 10);
  EXPECT_EQ(s.requests_with_per_chunk_usage, 1);
  EXPECT_TRUE(s.chunks_differ_from_tokens);
  EXPECT_FALSE(s.itl_estimated);
}

TEST(SummarizeRun, KeepsTheGapOfAChunkReportedWithNoTokensAsOneValue) {
  // Gaps 10 (0 tokens: kept whole) and 30 (2 tokens: two gaps of 15).
  RequestRecord record = completed(0, {10, 20, 50}, 50, 8, 3);
  record.text_chunk_tokens = {1, 0, 2};
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_EQ(s.itl_ms.count, 3);
  EXPECT_DOUBLE_EQ(s.itl_ms.min, 10);
  EXPECT_DOUBLE_EQ(s.itl_ms.max, 15);
  EXPECT_DOUBLE_EQ(s.itl_ms.mean, 40.0 / 3);
  EXPECT_TRUE(s.chunks_differ_from_tokens);  // the counts sum to 3 == chunks, yet differ
  EXPECT_FALSE(s.itl_estimated);
}

TEST(SummarizeRun, EstimatesTheSplitWhenUsageReportsMoreTokensThanChunks) {
  // 6 tokens over 3 chunks: k = 2. Gaps 10 and 20 become 5, 5, 10, 10.
  const RunSummary s =
      summarize_run(std::vector<RequestRecord>{completed(0, {10, 20, 40}, 40, 8, 6)});
  EXPECT_EQ(s.icl_ms.count, 2);
  EXPECT_EQ(s.itl_ms.count, 4);
  EXPECT_DOUBLE_EQ(s.itl_ms.min, 5);
  EXPECT_DOUBLE_EQ(s.itl_ms.max, 10);
  EXPECT_DOUBLE_EQ(s.itl_ms.mean, 7.5);
  EXPECT_TRUE(s.itl_estimated);
  EXPECT_TRUE(s.chunks_differ_from_tokens);
  EXPECT_EQ(s.requests_with_per_chunk_usage, 0);
}

TEST(SummarizeRun, SplitsChunkGapsByTheTokenizersCountAsByUsage) {
  // No usage, 6 tokens counted by --tokenizer over 3 chunks: k = 2, as with usage above.
  RequestRecord record = completed(0, {10, 20, 40}, 40, -1, 6);
  record.prompt_token_source = TokenSource::none;
  record.completion_token_source = TokenSource::tokenizer;
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_EQ(s.itl_ms.count, 4);
  EXPECT_DOUBLE_EQ(s.itl_ms.mean, 7.5);
  EXPECT_TRUE(s.itl_estimated);
  EXPECT_TRUE(s.chunks_differ_from_tokens);
}

TEST(SummarizeRun, EstimatedSplitRoundsTheValueCountButDividesByTheExactRatio) {
  // 5 tokens over 2 chunks: k = 2.5, so the one gap of 25 gives llround(2.5) = 3 values of 10.
  const RunSummary s = summarize_run(std::vector<RequestRecord>{completed(0, {10, 35}, 35, 8, 5)});
  EXPECT_EQ(s.itl_ms.count, 3);
  EXPECT_DOUBLE_EQ(s.itl_ms.min, 10);
  EXPECT_DOUBLE_EQ(s.itl_ms.max, 10);
  EXPECT_TRUE(s.itl_estimated);
}

TEST(SummarizeRun, PrefersExactPerChunkCountsOverTheEstimate) {
  RequestRecord record = completed(0, {10, 20, 40}, 40, 8, 6);
  record.text_chunk_tokens = {4, 1, 1};
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_EQ(s.itl_ms.count, 2);  // the later chunks carried one token each
  EXPECT_FALSE(s.itl_estimated);
  EXPECT_TRUE(s.chunks_differ_from_tokens);
}

TEST(SummarizeRun, FlagsFewerTokensThanChunksWithoutSplittingItl) {
  // Usage says 2 tokens but 3 text chunks arrived: ITL cannot be split, so it stays the ICL.
  const RunSummary s =
      summarize_run(std::vector<RequestRecord>{completed(0, {10, 20, 40}, 40, 8, 2)});
  EXPECT_TRUE(s.chunks_differ_from_tokens);
  EXPECT_FALSE(s.itl_estimated);
  EXPECT_EQ(s.itl_ms.count, s.icl_ms.count);
  EXPECT_DOUBLE_EQ(s.itl_ms.mean, s.icl_ms.mean);
}

TEST(SummarizeRun, ChunkCountEstimateNeverLooksLikeChunksDiffering) {
  RequestRecord record = completed(0, {10, 20, 40}, 40, -1, 3);
  record.prompt_token_source = TokenSource::none;
  record.completion_token_source = TokenSource::chunks;
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_FALSE(s.chunks_differ_from_tokens);
  EXPECT_FALSE(s.itl_estimated);
}

TEST(SummarizeRun, CountsWhereEachTokenCountCameFrom) {
  RequestRecord estimated = completed(0, {10, 20, 30}, 30, -1, 3);
  estimated.prompt_token_source = TokenSource::none;
  estimated.completion_token_source = TokenSource::chunks;
  RequestRecord tokenized = completed(0, {10, 20}, 30, -1, 7);
  tokenized.prompt_token_source = TokenSource::none;
  tokenized.completion_token_source = TokenSource::tokenizer;
  std::vector<RequestRecord> records = {
      completed(0, {10, 20}, 30, 100, 40),
      completed(0, {10, 20}, 30, 300, 60),
      estimated,
      tokenized,
  };
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.output_tokens_from_usage, 2);
  EXPECT_EQ(s.output_tokens_from_tokenizer, 1);
  EXPECT_EQ(s.output_tokens_from_chunks, 1);
  EXPECT_EQ(s.input_tokens_from_usage, 2);
  EXPECT_EQ(s.input_tokens_unknown, 2);
  EXPECT_EQ(s.total_output_tokens, 110);
  EXPECT_EQ(s.total_input_tokens, 400);  // the unknown prompts add 0, never a guess
  EXPECT_DOUBLE_EQ(s.mean_prompt_tokens.value_or(-1), 200);  // over the two known counts only
  EXPECT_DOUBLE_EQ(s.mean_completion_tokens.value_or(-1), 110.0 / 4);
}

TEST(SummarizeRun, AveragesTheTokenizersPromptCountOverTheRequestsItCounted) {
  RequestRecord counted = completed(0, {10}, 20, 110, 1);
  counted.client_prompt_tokens = 100;
  RequestRecord other = counted;
  other.client_prompt_tokens = 103;
  RequestRecord uncounted = completed(0, {10}, 20, 110, 1);  // client_prompt_tokens -1
  EXPECT_DOUBLE_EQ(summarize_run(std::vector<RequestRecord>{counted, other, uncounted})
                       .mean_client_prompt_tokens.value_or(-1),
                   101.5);
  EXPECT_FALSE(summarize_run(std::vector<RequestRecord>{uncounted}).mean_client_prompt_tokens);
}

TEST(SummarizeRun, NeverUsesTheRequestedLengthAsATokenCount) {
  RequestRecord record = completed(0, {10}, 20, -1, 1);
  record.prompt_token_source = TokenSource::none;
  record.requested_input_len = 256;
  record.requested_output_len = 128;
  const RunSummary s = summarize_run(std::vector<RequestRecord>{record});
  EXPECT_EQ(s.total_input_tokens, 0);
  EXPECT_EQ(s.input_tokens_unknown, 1);
  EXPECT_FALSE(s.mean_prompt_tokens.has_value());  // no count, no mean: not 0
  EXPECT_DOUBLE_EQ(s.mean_requested_input_len.value_or(-1), 256);
  EXPECT_DOUBLE_EQ(s.mean_requested_output_len.value_or(-1), 128);
}

TEST(SummarizeRun, AveragesRequestedLengthsOverCompletedRequests) {
  RequestRecord a = completed(0, {10}, 20, 110, 64);
  a.requested_input_len = 100;
  a.requested_output_len = 64;
  RequestRecord b = completed(0, {10}, 20, 230, 20);
  b.requested_input_len = 200;
  b.requested_output_len = 128;
  RequestRecord lost = failed(0, 20, ErrorClass::http_4xx, "bad request");
  lost.requested_input_len = 9999;
  const RunSummary s = summarize_run(std::vector<RequestRecord>{a, b, lost});
  EXPECT_DOUBLE_EQ(s.mean_requested_input_len.value_or(-1), 150);
  EXPECT_DOUBLE_EQ(s.mean_requested_output_len.value_or(-1), 96);
  EXPECT_DOUBLE_EQ(s.mean_prompt_tokens.value_or(-1), 170);
  EXPECT_DOUBLE_EQ(s.mean_completion_tokens.value_or(-1), 42);
}

// issue 28: nothing completed, yet what was asked is known from what was sent; what the
// server counted is not (no count at all, never 0).
TEST(SummarizeRun, RequestedLengthsOfARunWithNoCompletedRequestAreThoseSent) {
  std::vector<RequestRecord> records;
  for (int i = 0; i < 4; ++i) {
    RequestRecord lost = failed(0, 20, ErrorClass::http_5xx, "HTTP 500");
    lost.requested_input_len = 16;
    lost.requested_output_len = 8;
    records.push_back(lost);
  }
  const RunSummary s = summarize_run(records);
  EXPECT_DOUBLE_EQ(s.mean_requested_input_len.value_or(-1), 16);
  EXPECT_DOUBLE_EQ(s.mean_requested_output_len.value_or(-1), 8);
  EXPECT_FALSE(s.mean_prompt_tokens.has_value());
  EXPECT_FALSE(s.mean_completion_tokens.has_value());
  EXPECT_EQ(s.ttft_ms.count, 0);
  EXPECT_FALSE(bench::metrics::known_stat(s.ttft_ms, &bench::metrics::Distribution::p99));
}

TEST(SummarizeRun, ReportsScheduleLagAndLatencyFromTheIntendedStart) {
  RequestRecord on_time = completed(0, {40}, 100, 1, 1);
  RequestRecord late = completed(30, {80}, 230, 1, 1);  // TTFT 50, E2E 200
  late.intended_start_ns = 10 * kNsPerMs;               // 20 ms of lag
  RequestRecord late_failure = failed(60, 70, ErrorClass::http_5xx, "oops");
  late_failure.intended_start_ns = 0;  // 60 ms of lag; lag counts every measured request
  const RunSummary s = summarize_run(std::vector<RequestRecord>{on_time, late, late_failure});

  EXPECT_EQ(s.schedule_lag_ms.count, 3);
  EXPECT_DOUBLE_EQ(s.schedule_lag_ms.min, 0);
  EXPECT_DOUBLE_EQ(s.schedule_lag_ms.median, 20);
  EXPECT_DOUBLE_EQ(s.schedule_lag_ms.max, 60);

  EXPECT_EQ(s.ttft_from_intended_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.ttft_ms.max, 50);
  EXPECT_DOUBLE_EQ(s.ttft_from_intended_ms.min, 40);
  EXPECT_DOUBLE_EQ(s.ttft_from_intended_ms.max, 70);  // 50 + 20 lag

  EXPECT_EQ(s.e2e_from_intended_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.e2e_ms.max, 200);
  EXPECT_DOUBLE_EQ(s.e2e_from_intended_ms.min, 100);
  EXPECT_DOUBLE_EQ(s.e2e_from_intended_ms.max, 220);
}

TEST(SummarizeRun, AchievedConcurrencyIsTotalTimeInFlightOverDuration) {
  // Little's law: 4 requests in flight for the whole second -> 4.
  std::vector<RequestRecord> full = {completed(0, {10}, 1000, 1, 1), completed(0, {10}, 1000, 1, 1),
                                     completed(0, {10}, 1000, 1, 1),
                                     completed(0, {10}, 1000, 1, 1)};
  EXPECT_DOUBLE_EQ(summarize_run(full).achieved_concurrency, 4);

  // Staggered: 2 s + 1 s + 0.5 s (failed, still in flight) over 2 s -> 1.75.
  std::vector<RequestRecord> staggered = {
      completed(0, {10}, 2000, 1, 1),
      completed(1000, {1010}, 2000, 1, 1),
      failed(500, 1000, ErrorClass::http_5xx, "overloaded"),
  };
  EXPECT_DOUBLE_EQ(summarize_run(staggered).achieved_concurrency, 1.75);
}

TEST(SummarizeRun, AchievedConcurrencyLeavesOutCancelledRequests) {
  std::vector<RequestRecord> records = {
      completed(0, {10}, 2000, 1, 1),
      failed(0, 1000, ErrorClass::cancelled, "interrupted"),
  };
  EXPECT_DOUBLE_EQ(summarize_run(records).achieved_concurrency, 1);
}

TEST(SummarizeRun, CountsRequestsWithPerChunkUsage) {
  RequestRecord exact = completed(0, {10, 20}, 20, 1, 2);
  exact.text_chunk_tokens = {1, 1};
  std::vector<RequestRecord> records = {exact, exact, completed(0, {10, 20}, 20, 1, 2)};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.requests_with_per_chunk_usage, 2);
  EXPECT_FALSE(s.chunks_differ_from_tokens);
  EXPECT_EQ(s.total_text_chunks, 6);
}

}  // namespace

namespace {

TEST(SummarizeRun, CountsNewConnectionsAndTheirConnectTimeOverMeasuredRequests) {
  std::vector<RequestRecord> records = {completed(0, {10}, 20, 1, 1), completed(0, {10}, 20, 1, 1),
                                        completed(0, {10}, 20, 1, 1), completed(0, {10}, 20, 1, 1)};
  records[0].new_connection = true;
  records[0].connect_ns = 2 * kNsPerMs;
  records[1].new_connection = true;
  records[1].connect_ns = 4 * kNsPerMs;
  records[3].warmup = true;  // excluded, like every other figure
  records[3].new_connection = true;
  records[3].connect_ns = 100 * kNsPerMs;
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.connections_opened, 2);
  EXPECT_EQ(s.connect_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.connect_ms.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.connect_ms.max, 4.0);
}

}  // namespace

namespace {

TEST(SummarizeRun, GoodputCountsCompletedRequestsMeetingEverySlo) {
  // TTFT 10 ms / TPOT 10 ms; TTFT 50 ms; TPOT 40 ms; failed.
  std::vector<RequestRecord> records = {
      completed(0, {10, 20, 30}, 30, 1, 3), completed(0, {50, 60}, 60, 1, 2),
      completed(0, {10, 50, 90}, 90, 1, 3), failed(0, 100, ErrorClass::http_5xx, "x")};
  bench::metrics::SummaryOptions options;
  options.slo.ttft_ms = 20;
  options.slo.tpot_ms = 15;
  const RunSummary s = summarize_run(records, options);
  EXPECT_TRUE(s.goodput_measured);
  EXPECT_EQ(s.good_requests, 1);
  EXPECT_DOUBLE_EQ(s.goodput, 1 / s.duration_s);
  EXPECT_FALSE(summarize_run(records).goodput_measured);
}

TEST(SummarizeRun, CdfPointsAreThePercentilesOfEachDistribution) {
  std::vector<RequestRecord> records;
  for (int i = 1; i <= 101; ++i) records.push_back(completed(0, {i}, 200, 1, 1));
  const RunSummary s = summarize_run(records);
  ASSERT_EQ(s.ttft_cdf_ms.size(), 102u);  // 0..100 and 99.9
  EXPECT_EQ(s.ttft_cdf_ms.front(), std::make_pair(0.0, 1.0));
  EXPECT_EQ(s.ttft_cdf_ms[50], std::make_pair(50.0, 51.0));
  EXPECT_EQ(s.ttft_cdf_ms[100].first, 99.9);
  EXPECT_EQ(s.ttft_cdf_ms.back(), std::make_pair(100.0, 101.0));
  EXPECT_TRUE(s.itl_cdf_ms.empty());  // one chunk each: no gaps
}

TEST(SummarizeRun, AskedPercentilesAreKeptInTheAskedOrderOnlyWhenAsked) {
  std::vector<RequestRecord> records;
  for (int i = 1; i <= 101; ++i) records.push_back(completed(0, {i, i + 2}, 200, 1, 2));
  bench::metrics::SummaryOptions options;
  options.asked_percentiles = {99.9, 0.1, 25};
  const RunSummary s = summarize_run(records, options);
  // TTFTs 1..101 ms: percentile p is 1 + p; every chunk gap is 2 ms.
  ASSERT_EQ(s.ttft_ms.asked.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(s.ttft_ms.asked[i].first, options.asked_percentiles[i]);
    EXPECT_NEAR(s.ttft_ms.asked[i].second, 1 + options.asked_percentiles[i], 1e-9);
    EXPECT_EQ(s.icl_ms.asked[i].second, 2);
  }
  EXPECT_EQ(s.e2e_ms.asked.size(), 3u);
  EXPECT_EQ(s.tpot_ms.asked.size(), 3u);
  EXPECT_TRUE(s.connect_ms.asked.empty());  // vLLM's metrics only
  EXPECT_TRUE(summarize_run(records).ttft_ms.asked.empty());
}

TEST(SummarizeRun, MergedAccumulatorsGiveTheSameFiguresAsOne) {
  std::vector<RequestRecord> records;
  for (int i = 0; i < 40; ++i) {
    records.push_back(i % 7 == 0 ? failed(i, i + 30, ErrorClass::stall, "s")
                                 : completed(i, {i + 5, i + 9, i + 14}, i + 20, 5 + i, 3));
  }
  bench::metrics::RunAccumulator one, left, right;
  for (std::size_t i = 0; i < records.size(); ++i) {
    one.add(records[i]);
    (i < 13 ? left : right).add(records[i]);
  }
  left.merge(std::move(right));
  const RunSummary a = one.summarize();
  const RunSummary b = left.summarize();
  EXPECT_EQ(a.sent, b.sent);
  EXPECT_EQ(a.failed, b.failed);
  EXPECT_EQ(a.total_output_tokens, b.total_output_tokens);
  EXPECT_EQ(a.total_input_tokens, b.total_input_tokens);
  EXPECT_DOUBLE_EQ(a.duration_s, b.duration_s);
  EXPECT_DOUBLE_EQ(a.output_throughput, b.output_throughput);
  EXPECT_DOUBLE_EQ(a.ttft_ms.p99, b.ttft_ms.p99);
  EXPECT_DOUBLE_EQ(a.itl_ms.median, b.itl_ms.median);
  EXPECT_DOUBLE_EQ(a.achieved_concurrency, b.achieved_concurrency);
  EXPECT_EQ(a.errors.at(ErrorClass::stall).count, b.errors.at(ErrorClass::stall).count);
}

// --- input tokens: computed vs cached ----------------------------------------------------------

RequestRecord with_cached(RequestRecord record, std::int64_t cached_tokens) {
  record.cached_prompt_tokens = cached_tokens;
  record.cached_prompt_token_source = bench::metrics::CachedTokenSource::usage_details;
  return record;
}

TEST(SummarizeRun, SplitsInputTokensIntoComputedAndCachedWhenEveryRequestSaysSo) {
  const std::vector<RequestRecord> records = {
      with_cached(completed(0, {100}, 1000, 300, 1), 256),
      with_cached(completed(0, {100}, 2000, 100, 1), 0),
  };
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.input_split.disclosure(), CacheDisclosure::all);
  EXPECT_EQ(s.input_split.cached_tokens, 256);
  EXPECT_EQ(s.input_split.computed_tokens, 144);
  EXPECT_EQ(s.input_split.unknown_split_tokens, 0);
  EXPECT_EQ(s.input_split.computed_tokens + s.input_split.cached_tokens, s.total_input_tokens);
  EXPECT_DOUBLE_EQ(s.cached_input_throughput, 128.0);   // 256 tokens over 2 s
  EXPECT_DOUBLE_EQ(s.computed_input_throughput, 72.0);  // 144 tokens over 2 s
}

TEST(SummarizeRun, KeepsTheUndisclosedPartOfTheInputUnknown) {
  const std::vector<RequestRecord> records = {
      with_cached(completed(0, {100}, 1000, 300, 1), 200),
      completed(0, {100}, 1000, 50, 1),  // this server said nothing of its cache
  };
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.input_split.disclosure(), CacheDisclosure::some);
  EXPECT_EQ(s.input_split.requests, 2);
  EXPECT_EQ(s.input_split.disclosing_requests, 1);
  EXPECT_EQ(s.input_split.cached_tokens, 200);
  EXPECT_EQ(s.input_split.computed_tokens, 100);
  EXPECT_EQ(s.input_split.unknown_split_tokens, 50);
}

TEST(SummarizeRun, SaysNoneDisclosedRatherThanZeroCached) {
  const std::vector<RequestRecord> records = {completed(0, {100}, 1000, 300, 1)};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.input_split.disclosure(), CacheDisclosure::none);
  EXPECT_EQ(s.input_split.unknown_split_tokens, 300);
  EXPECT_EQ(bench::metrics::cache_disclosure_name(s.input_split.disclosure()), "none");
  EXPECT_EQ(summarize_run({}).input_split.disclosure(), CacheDisclosure::none);
}

TEST(SummarizeRun, SplitCountsOnlySuccessfulMeasuredRequests) {
  RequestRecord warmup = with_cached(completed(0, {100}, 1000, 300, 1), 300);
  warmup.warmup = true;
  RequestRecord failure = with_cached(completed(0, {100}, 1000, 300, 1), 300);
  failure.error = ErrorClass::truncated;
  const std::vector<RequestRecord> records = {warmup, failure,
                                              with_cached(completed(0, {100}, 1000, 40, 1), 8)};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.input_split.requests, 1);
  EXPECT_EQ(s.input_split.cached_tokens, 8);
  EXPECT_EQ(s.input_split.computed_tokens, 32);
  EXPECT_EQ(s.input_split.disclosure(), CacheDisclosure::all);
}

TEST(RunAccumulator, MergesTheInputSplit) {
  bench::metrics::RunAccumulator left, right;
  left.add(with_cached(completed(0, {100}, 1000, 300, 1), 100));
  right.add(completed(0, {100}, 1000, 20, 1));
  left.merge(std::move(right));
  const RunSummary s = left.summarize();
  EXPECT_EQ(s.input_split.disclosure(), CacheDisclosure::some);
  EXPECT_EQ(s.input_split.cached_tokens, 100);
  EXPECT_EQ(s.input_split.computed_tokens, 200);
  EXPECT_EQ(s.input_split.unknown_split_tokens, 20);
}

}  // namespace

namespace {

// 200 requests of 3 chunks: each gives about 10 raw values (TTFT, 2 ITL, 2 ICL, TPOT, E2E, two
// lags, two from the intended start), some 2,000 in all.
std::vector<RequestRecord> two_hundred_requests() {
  std::vector<RequestRecord> records;
  for (std::int64_t i = 0; i < 200; ++i) {
    records.push_back(completed(i, {i + 10 + i % 7, i + 20, i + 30}, i + 31, 10, 3));
  }
  return records;
}

TEST(RunAccumulator, KeepsEveryValueWithinTheSampleBudgetAndSaysSo) {
  bench::metrics::SummaryOptions options;
  options.sample_budget = 5000;
  const RunSummary s = summarize_run(two_hundred_requests(), options);
  EXPECT_EQ(s.latency_sample_budget, 5000u);
  EXPECT_TRUE(s.latency_samples_exact);
}

// The budget is for all distributions together: each alone would fit 500 values, all together
// do not, and past it the figures come from histograms, within their error bound.
TEST(RunAccumulator, PastTheSampleBudgetOfAllDistributionsTogetherFiguresAreFromHistograms) {
  bench::metrics::SummaryOptions options;
  options.sample_budget = 500;
  const RunSummary bounded = summarize_run(two_hundred_requests(), options);
  const RunSummary exact = summarize_run(two_hundred_requests());
  EXPECT_FALSE(bounded.latency_samples_exact);
  EXPECT_TRUE(exact.latency_samples_exact);
  EXPECT_EQ(bounded.ttft_ms.count, exact.ttft_ms.count);
  EXPECT_EQ(bounded.ttft_ms.max, exact.ttft_ms.max);
  const double bound = bench::metrics::Histogram::kMaxRelativeError;
  EXPECT_NEAR(bounded.ttft_ms.median, exact.ttft_ms.median, exact.ttft_ms.median * bound);
  EXPECT_NEAR(bounded.itl_ms.p99, exact.itl_ms.p99, exact.itl_ms.p99 * bound);
  EXPECT_NEAR(bounded.e2e_ms.p90, exact.e2e_ms.p90, exact.e2e_ms.p90 * bound);
}

// Output tok/s per user is a percentile of the requests' own rates (1000 / TPOT), numpy's
// definition on the rates: with 10 requests the p10 falls between two of them (rank 0.9), where
// the reciprocal of TPOT's interpolated p90 would differ.
TEST(SummarizeRun, PerUserRatesArePercentilesOfEachRequestsOwnRate) {
  const std::vector<std::int64_t> tpot_ms = {5, 7, 8, 10, 12, 15, 20, 25, 30, 40};
  std::vector<RequestRecord> records;
  std::vector<double> rates;
  for (std::int64_t ms : tpot_ms) {
    records.push_back(completed(0, {10, 10 + ms}, 10 + ms, 16, 2));  // TPOT = E2E - TTFT
    rates.push_back(1000.0 / static_cast<double>(ms));
  }
  std::sort(rates.begin(), rates.end());
  const RunSummary s = summarize_run(records);
  ASSERT_EQ(s.tpot_ms.count, 10);
  EXPECT_DOUBLE_EQ(*s.median_output_per_user, bench::metrics::percentile_sorted(rates, 50));
  EXPECT_DOUBLE_EQ(*s.p10_output_per_user, bench::metrics::percentile_sorted(rates, 10));
  EXPECT_GT(std::abs(*s.p10_output_per_user - 1000.0 / s.tpot_ms.p90), 0.01);
}

TEST(SummarizeRun, PerUserRatesAreUnknownWithoutATpot) {
  const std::vector<RequestRecord> one_token = {completed(0, {10}, 10, 16, 1)};
  const RunSummary s = summarize_run(one_token);
  EXPECT_EQ(s.tpot_ms.count, 0);
  EXPECT_FALSE(s.median_output_per_user);
  EXPECT_FALSE(s.p10_output_per_user);
}

// A request sent with "stream": false: one whole body, no first token, no chunk times.
RequestRecord not_streamed(std::int64_t start_ms, std::int64_t end_ms, std::int64_t prompt_tokens,
                           std::int64_t completion_tokens) {
  RequestRecord record = completed(start_ms, {}, end_ms, prompt_tokens, completion_tokens);
  record.streamed = false;
  record.saw_done = false;
  return record;
}

TEST(SummarizeRun, ANonStreamedRequestCountsInE2EAndThroughputButInNoTokenTiming) {
  const RequestRecord streamed = completed(0, {100, 110, 120}, 130, 10, 3);
  const RequestRecord whole = not_streamed(0, 1000, 20, 50);
  const std::vector<RequestRecord> records = {streamed, whole};
  const RunSummary s = summarize_run(records);
  EXPECT_EQ(s.completed, 2);
  EXPECT_EQ(s.failed, 0);  // no first token is no failure
  EXPECT_EQ(s.not_streamed, 1);
  EXPECT_EQ(s.completed_streamed(), 1);
  EXPECT_EQ(s.total_output_tokens, 53);
  EXPECT_EQ(s.total_input_tokens, 30);
  EXPECT_DOUBLE_EQ(s.output_throughput, 53.0);  // over the 1 s run
  EXPECT_EQ(s.e2e_ms.count, 2);
  EXPECT_DOUBLE_EQ(s.e2e_ms.max, 1000.0);
  // TTFT, ITL, ICL and TPOT are the streamed request's alone.
  EXPECT_EQ(s.ttft_ms.count, 1);
  EXPECT_DOUBLE_EQ(s.ttft_ms.max, 100.0);
  EXPECT_EQ(s.ttft_from_intended_ms.count, 1);
  EXPECT_EQ(s.tpot_ms.count, 1);
  EXPECT_DOUBLE_EQ(s.tpot_ms.max, 15.0);
  EXPECT_EQ(s.icl_ms.count, 2);
  EXPECT_EQ(s.ttst_ms.count, 1);
  EXPECT_FALSE(s.chunks_differ_from_tokens);  // a whole body has no chunks to differ
  // Its tokens arrive with its body, at its end: the timeline still adds up.
  std::int64_t timeline_tokens = 0;
  for (const auto& bucket : s.timeline) timeline_tokens += bucket.output_tokens;
  EXPECT_EQ(timeline_tokens, 53);
  EXPECT_EQ(s.timeline.back().output_tokens, 50);
}

TEST(SummarizeRun, WithNoRequestStreamedEveryTokenTimingIsEmptyNotZero) {
  const std::vector<RequestRecord> records = {not_streamed(0, 400, 8, 16),
                                              not_streamed(0, 600, 8, 16)};
  bench::metrics::SummaryOptions options;
  options.slo.ttft_ms = 500;  // a whole answer's first token reaches its user at its end
  const RunSummary s = summarize_run(records, options);
  EXPECT_EQ(s.completed, 2);
  EXPECT_EQ(s.not_streamed, 2);
  EXPECT_EQ(s.completed_streamed(), 0);
  EXPECT_EQ(s.ttft_ms.count, 0);
  EXPECT_EQ(s.itl_ms.count, 0);
  EXPECT_EQ(s.tpot_ms.count, 0);
  EXPECT_EQ(s.ttfa_ms.count, 0);
  EXPECT_FALSE(s.median_output_per_user.has_value());
  EXPECT_EQ(s.e2e_ms.count, 2);
  EXPECT_EQ(s.good_requests, 1);  // E2E 400 ms meets a 500 ms TTFT, 600 ms does not
}

}  // namespace
