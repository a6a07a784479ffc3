// The window's growth between two scrapes: counters subtracted, histogram buckets subtracted one
// by one, and a reset or a change of shape said as a note (the figure unknown), never a
// negative or guessed number. Also the bucket a percentile falls in.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "bench/server_metrics/snapshot.hpp"
#include "scrape_helpers.hpp"

namespace {

using bench::server_metrics::delta_between;
using bench::server_metrics::Histogram;
using bench::server_metrics::parse_exposition;
using bench::server_metrics::percentile_range;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::ServerFamily;
using bench::server_metrics::Snapshot;
using bench::testing::snapshot_of;

std::string vllm_scrape(int prompt, int generation, int fast, int all, double sum) {
  return "vllm:num_requests_running 1\n"
         "vllm:prompt_tokens_total " +
         std::to_string(prompt) +
         "\n"
         "vllm:generation_tokens_total " +
         std::to_string(generation) +
         "\n"
         "# TYPE vllm:time_to_first_token_seconds histogram\n"
         "vllm:time_to_first_token_seconds_bucket{le=\"0.1\"} " +
         std::to_string(fast) +
         "\n"
         "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} " +
         std::to_string(all) +
         "\n"
         "vllm:time_to_first_token_seconds_count " +
         std::to_string(all) +
         "\n"
         "vllm:time_to_first_token_seconds_sum " +
         std::to_string(sum) + "\n";
}

TEST(Delta, SubtractsCountersAndHistogramBuckets) {
  const auto delta = delta_between(snapshot_of(vllm_scrape(1000, 300, 4, 5, 0.5)),
                                   snapshot_of(vllm_scrape(3500, 1100, 10, 15, 2.0)));
  EXPECT_EQ(delta.family, ServerFamily::vllm);
  EXPECT_EQ(delta.prompt_tokens, 2500);
  EXPECT_EQ(delta.generation_tokens, 800);
  ASSERT_TRUE(delta.ttft_seconds.has_value());
  ASSERT_EQ(delta.ttft_seconds->buckets.size(), 2u);
  EXPECT_EQ(delta.ttft_seconds->buckets[0].count, 6);
  EXPECT_EQ(delta.ttft_seconds->buckets[1].count, 10);
  EXPECT_EQ(delta.ttft_seconds->count, 10);
  EXPECT_DOUBLE_EQ(delta.ttft_seconds->sum, 1.5);
  EXPECT_FALSE(delta.preemptions.has_value());  // exposed by neither scrape: no note
  EXPECT_TRUE(delta.notes.empty());
}

TEST(Delta, ACounterThatWentDownIsUnknownWithANote) {
  const auto delta = delta_between(snapshot_of(vllm_scrape(5000, 900, 4, 5, 0.5)),
                                   snapshot_of(vllm_scrape(200, 1000, 1, 1, 0.1)));
  EXPECT_FALSE(delta.prompt_tokens.has_value());
  EXPECT_EQ(delta.generation_tokens, 100);
  EXPECT_FALSE(delta.ttft_seconds.has_value());
  ASSERT_EQ(delta.notes.size(), 2u);
  EXPECT_EQ(delta.notes[0],
            "prompt tokens: the counter went down between the scrapes (did the server restart?)");
  EXPECT_EQ(delta.notes[1],
            "TTFT: the histogram went down between the scrapes (did the server restart?)");
}

TEST(Delta, AFigureInOnlyOneScrapeIsUnknownWithANote) {
  const auto delta = delta_between(snapshot_of("vllm:num_requests_running 1\n"),
                                   snapshot_of(vllm_scrape(10, 5, 1, 1, 0.1)));
  EXPECT_FALSE(delta.prompt_tokens.has_value());
  EXPECT_FALSE(delta.ttft_seconds.has_value());
  ASSERT_EQ(delta.notes.size(), 3u);
  EXPECT_EQ(delta.notes[0], "prompt tokens: exposed in only one of the two scrapes");
}

TEST(Delta, ChangedBucketsAreUnknownWithANote) {
  Snapshot before = snapshot_of(vllm_scrape(0, 0, 1, 2, 0.1));
  Snapshot after = before;
  after.ttft_seconds->buckets[0].upper_bound = 0.2;
  const auto delta = delta_between(before, after);
  EXPECT_FALSE(delta.ttft_seconds.has_value());
  ASSERT_EQ(delta.notes.size(), 1u);
  EXPECT_EQ(delta.notes[0], "TTFT: the buckets changed between the scrapes");
}

TEST(Delta, ADifferentServerFamilyGivesNoFigures) {
  const auto delta = delta_between(snapshot_of("sglang:prompt_tokens_total 5\n"),
                                   snapshot_of(vllm_scrape(10, 5, 1, 1, 0.1)));
  EXPECT_FALSE(delta.prompt_tokens.has_value());
  ASSERT_EQ(delta.notes.size(), 1u);
  EXPECT_EQ(delta.notes[0], "the server's family changed between the scrapes (sglang, then vllm)");
}

TEST(PercentileRange, GivesTheBucketThePercentileFallsIn) {
  Histogram histogram;
  histogram.buckets = {{0.05, 20}, {0.1, 45}, {0.5, 49}, {INFINITY, 50}};
  const auto p50 = percentile_range(histogram, 50);  // rank 25: in (0.05, 0.1]
  ASSERT_TRUE(p50.has_value());
  EXPECT_EQ(p50->lower, 0.05);
  EXPECT_EQ(p50->upper, 0.1);
  const auto p10 = percentile_range(histogram, 10);  // rank 5: in the first bucket, (0, 0.05]
  EXPECT_EQ(p10->lower, 0);
  EXPECT_EQ(p10->upper, 0.05);
  const auto p99 = percentile_range(histogram, 99);  // rank 49.5: beyond 0.5
  EXPECT_EQ(p99->lower, 0.5);
  EXPECT_EQ(p99->upper, INFINITY);
}

TEST(PercentileRange, SkipsEmptyLeadingBucketsAndRefusesAnEmptyHistogram) {
  Histogram histogram;
  histogram.buckets = {{0.01, 0}, {0.1, 0}, {1, 3}, {INFINITY, 3}};
  const auto p0 = percentile_range(histogram, 0);
  ASSERT_TRUE(p0.has_value());
  EXPECT_EQ(p0->lower, 0.1);
  EXPECT_EQ(p0->upper, 1);
  histogram.buckets = {{0.1, 0}, {INFINITY, 0}};
  EXPECT_FALSE(percentile_range(histogram, 50).has_value());
  EXPECT_FALSE(percentile_range(Histogram{}, 50).has_value());
}

}  // namespace

namespace {

using bench::server_metrics::Delta;
using bench::server_metrics::sum_of;

Delta server_window(double prompt, double generation, double fast, double all) {
  Delta delta;
  delta.family = ServerFamily::vllm;
  delta.prompt_tokens = prompt;
  delta.generation_tokens = generation;
  Histogram ttft;
  ttft.buckets = {{0.1, fast}, {std::numeric_limits<double>::infinity(), all}};
  ttft.count = all;
  ttft.sum = all * 0.05;
  delta.ttft_seconds = ttft;
  return delta;
}

TEST(SumOf, AddsTheCountersAndHistogramsOfSeveralServers) {
  const Delta total = sum_of({server_window(100, 10, 1, 2), server_window(300, 30, 3, 5)});
  EXPECT_EQ(total.family, ServerFamily::vllm);
  EXPECT_EQ(total.prompt_tokens, 400);
  EXPECT_EQ(total.generation_tokens, 40);
  ASSERT_TRUE(total.ttft_seconds.has_value());
  EXPECT_EQ(total.ttft_seconds->buckets[0].count, 4);
  EXPECT_EQ(total.ttft_seconds->buckets[1].count, 7);
  EXPECT_EQ(total.ttft_seconds->count, 7);
  EXPECT_FALSE(total.preemptions.has_value());  // neither exposes it
  EXPECT_TRUE(total.notes.empty());
}

TEST(SumOf, OneUnknownCounterMakesTheSumUnknown) {
  Delta restarted = server_window(300, 30, 3, 5);
  restarted.generation_tokens.reset();
  restarted.notes.push_back("generation tokens: the counter went down");
  const Delta total = sum_of({server_window(100, 10, 1, 2), restarted});
  EXPECT_EQ(total.prompt_tokens, 400);
  EXPECT_FALSE(total.generation_tokens.has_value());
  ASSERT_EQ(total.notes.size(), 1u);
  EXPECT_EQ(total.notes[0], "server 2: generation tokens: the counter went down");
}

TEST(SumOf, DifferentBucketsOrFamiliesAreNotMixed) {
  Delta other = server_window(300, 30, 3, 5);
  other.family = ServerFamily::sglang;
  other.ttft_seconds->buckets[0].upper_bound = 0.2;
  const Delta total = sum_of({server_window(100, 10, 1, 2), other});
  EXPECT_EQ(total.family, ServerFamily::unknown);
  EXPECT_FALSE(total.ttft_seconds.has_value());
  ASSERT_EQ(total.notes.size(), 1u);
  EXPECT_NE(total.notes[0].find("buckets differ"), std::string::npos);
}

}  // namespace

namespace {

using bench::server_metrics::Delta;
using bench::server_metrics::sum_of;

// A node's DCGM exporter scraped beside the engine: GPU series and nothing of a server's.
Delta gpu_exporter_window(double joules, double gpus) {
  Delta delta;
  delta.gpu_energy_joules = joules;
  delta.gpu_power_watts = 300 * gpus;
  delta.gpu_energy_series = gpus;
  return delta;
}

TEST(SumOfGpus, AnExporterBesideTheServerGivesItsEnergyAndTakesNothingFromTheServers) {
  Delta engine;
  engine.family = ServerFamily::vllm;
  engine.prompt_tokens = 100;
  engine.generation_tokens = 10;
  const Delta total = sum_of({engine, gpu_exporter_window(500, 8)});
  EXPECT_EQ(total.family, ServerFamily::vllm);
  EXPECT_EQ(total.prompt_tokens, 100);
  EXPECT_EQ(total.generation_tokens, 10);
  EXPECT_EQ(total.gpu_energy_joules, 500);
  EXPECT_EQ(total.gpu_energy_series, 8);
  ASSERT_EQ(total.notes.size(), 1u);
  EXPECT_EQ(total.notes[0],
            "GPU energy from 1 of the 2 metrics targets (the others expose no GPU energy counter)");
}

TEST(SumOfGpus, TwoNodesExportersAddUpAndNoExporterLeavesEnergyUnknown) {
  Delta engine;
  engine.family = ServerFamily::sglang;
  engine.generation_tokens = 10;
  const Delta both = sum_of({engine, gpu_exporter_window(500, 8), gpu_exporter_window(700, 8)});
  EXPECT_EQ(both.gpu_energy_joules, 1200);
  EXPECT_EQ(both.gpu_energy_series, 16);
  EXPECT_EQ(both.family, ServerFamily::sglang);
  const Delta none = sum_of({engine, engine});
  EXPECT_FALSE(none.gpu_energy_joules.has_value());
  EXPECT_EQ(none.generation_tokens, 20);
}

}  // namespace
