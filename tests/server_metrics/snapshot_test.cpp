// Each server family's names read into one Snapshot: the real llama.cpp scrape, hand-written
// vLLM and SGLang ones (tests/data/server_metrics), and small TGI and TRT-LLM ones in the shapes
// their docs give.
#include "bench/server_metrics/snapshot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "scrape_helpers.hpp"

namespace {

using bench::server_metrics::detect_family;
using bench::server_metrics::parse_exposition;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::ServerFamily;
using bench::server_metrics::Snapshot;
using bench::testing::snapshot_of;

Snapshot snapshot_of_file(const std::string& name) {
  std::ifstream in(std::string(BENCH_TEST_DATA_DIR) + "/server_metrics/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return snapshot_of(text.str());
}

TEST(Snapshot, ReadsTheRealLlamaCppScrape) {
  const Snapshot snapshot = snapshot_of_file("llamacpp-b4748.prom");
  EXPECT_EQ(snapshot.family, ServerFamily::llamacpp);
  EXPECT_EQ(snapshot.prompt_tokens, 105509);
  EXPECT_EQ(snapshot.generation_tokens, 51722);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.189453);
  EXPECT_EQ(snapshot.requests_running, 0);
  EXPECT_EQ(snapshot.requests_waiting, 0);
  // llama.cpp exposes none of these: unknown, not 0.
  EXPECT_FALSE(snapshot.preemptions.has_value());
  EXPECT_FALSE(snapshot.prefix_cache_hit_tokens.has_value());
  EXPECT_FALSE(snapshot.ttft_seconds.has_value());
  EXPECT_FALSE(snapshot.e2e_seconds.has_value());
}

TEST(Snapshot, ReadsVllmCountersWithTotalAndItsHistograms) {
  const Snapshot snapshot = snapshot_of_file("vllm.prom");
  EXPECT_EQ(snapshot.family, ServerFamily::vllm);
  EXPECT_EQ(snapshot.requests_running, 3);
  EXPECT_EQ(snapshot.requests_waiting, 2);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.4375);
  EXPECT_EQ(snapshot.prompt_tokens, 12000);
  EXPECT_EQ(snapshot.generation_tokens, 6400);
  EXPECT_EQ(snapshot.prefix_cache_hit_tokens, 4096);
  EXPECT_EQ(snapshot.prefix_cache_query_tokens, 12000);
  EXPECT_EQ(snapshot.preemptions, 1);
  EXPECT_EQ(snapshot.requests_succeeded, 50);  // stop + length series summed
  EXPECT_FALSE(snapshot.prefix_cache_hit_ratio.has_value());
  ASSERT_TRUE(snapshot.ttft_seconds.has_value());
  ASSERT_EQ(snapshot.ttft_seconds->buckets.size(), 4u);
  EXPECT_EQ(snapshot.ttft_seconds->buckets[1].upper_bound, 0.05);
  EXPECT_EQ(snapshot.ttft_seconds->buckets[1].count, 20);
  EXPECT_EQ(snapshot.ttft_seconds->buckets[3].upper_bound, INFINITY);
  EXPECT_EQ(snapshot.ttft_seconds->count, 50);
  EXPECT_EQ(snapshot.ttft_seconds->sum, 2.75);
  ASSERT_TRUE(snapshot.e2e_seconds.has_value());
  EXPECT_EQ(snapshot.e2e_seconds->sum, 52.5);
}

TEST(Snapshot, ReadsCountersWrittenWithoutTotalAndOlderVllmNames) {
  const Snapshot snapshot = snapshot_of(
      "# TYPE vllm:prompt_tokens counter\nvllm:prompt_tokens 10\n"
      "vllm:gpu_cache_usage_perc 0.5\nvllm:gpu_prefix_cache_hits_total 4\n");
  EXPECT_EQ(snapshot.family, ServerFamily::vllm);
  EXPECT_EQ(snapshot.prompt_tokens, 10);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.5);
  EXPECT_EQ(snapshot.prefix_cache_hit_tokens, 4);
}

TEST(Snapshot, SumsSeriesAndTakesTheFullestEnginesUsage) {
  const Snapshot snapshot = snapshot_of(
      "vllm:num_requests_running{engine=\"0\"} 3\nvllm:num_requests_running{engine=\"1\"} 4\n"
      "vllm:kv_cache_usage_perc{engine=\"0\"} 0.2\nvllm:kv_cache_usage_perc{engine=\"1\"} 0.9\n"
      "# TYPE vllm:time_to_first_token_seconds histogram\n"
      "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.1\"} 1\n"
      "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\"} 2\n"
      "vllm:time_to_first_token_seconds_bucket{engine=\"1\",le=\"0.1\"} 5\n"
      "vllm:time_to_first_token_seconds_bucket{engine=\"1\",le=\"+Inf\"} 7\n");
  EXPECT_EQ(snapshot.requests_running, 7);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.9);
  ASSERT_TRUE(snapshot.ttft_seconds.has_value());
  ASSERT_EQ(snapshot.ttft_seconds->buckets.size(), 2u);
  EXPECT_EQ(snapshot.ttft_seconds->buckets[0].count, 6);
  EXPECT_EQ(snapshot.ttft_seconds->buckets[1].count, 9);
  EXPECT_EQ(snapshot.ttft_seconds->count, 9);  // no _count line: the +Inf bucket's
}

TEST(Snapshot, ReadsSglangGaugesAndHitRate) {
  const Snapshot snapshot = snapshot_of_file("sglang.prom");
  EXPECT_EQ(snapshot.family, ServerFamily::sglang);
  EXPECT_EQ(snapshot.requests_running, 8);
  EXPECT_EQ(snapshot.requests_waiting, 0);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.12);
  EXPECT_EQ(snapshot.prefix_cache_hit_ratio, 0.5);
  EXPECT_EQ(snapshot.prompt_tokens, 2048);
  EXPECT_EQ(snapshot.generation_tokens, 1024);
  ASSERT_TRUE(snapshot.ttft_seconds.has_value());
  EXPECT_EQ(snapshot.ttft_seconds->count, 8);
  EXPECT_FALSE(snapshot.e2e_seconds.has_value());
}

TEST(Snapshot, ReadsTgiTokenTotalsFromItsLengthHistograms) {
  const Snapshot snapshot = snapshot_of(
      "# TYPE tgi_queue_size gauge\ntgi_queue_size 2\n"
      "# TYPE tgi_batch_current_size gauge\ntgi_batch_current_size 5\n"
      "# TYPE tgi_request_input_length histogram\n"
      "tgi_request_input_length_bucket{le=\"+Inf\"} 4\n"
      "tgi_request_input_length_sum 400\ntgi_request_input_length_count 4\n"
      "# TYPE tgi_request_generated_tokens histogram\n"
      "tgi_request_generated_tokens_bucket{le=\"+Inf\"} 4\n"
      "tgi_request_generated_tokens_sum 128\ntgi_request_generated_tokens_count 4\n"
      "# TYPE tgi_request_success counter\ntgi_request_success 4\n");
  EXPECT_EQ(snapshot.family, ServerFamily::tgi);
  EXPECT_EQ(snapshot.requests_waiting, 2);
  EXPECT_EQ(snapshot.requests_running, 5);
  EXPECT_EQ(snapshot.prompt_tokens, 400);
  EXPECT_EQ(snapshot.generation_tokens, 128);
  EXPECT_EQ(snapshot.requests_succeeded, 4);
}

TEST(Snapshot, ReadsTrtllmNames) {
  const Snapshot snapshot = snapshot_of(
      "trtllm_num_requests_running 1\ntrtllm_num_requests_waiting 0\n"
      "trtllm_kv_cache_utilization 0.3\ntrtllm_kv_cache_hit_rate 0.25\n"
      "trtllm_prompt_tokens_total 90\ntrtllm_generation_tokens_total 30\n");
  EXPECT_EQ(snapshot.family, ServerFamily::trtllm);
  EXPECT_EQ(snapshot.kv_cache_usage_ratio, 0.3);
  EXPECT_EQ(snapshot.prefix_cache_hit_ratio, 0.25);
  EXPECT_EQ(snapshot.prompt_tokens, 90);
  EXPECT_EQ(snapshot.generation_tokens, 30);
}

TEST(Snapshot, AnUnknownServerHasOnlyUnknownFigures) {
  const Snapshot snapshot = snapshot_of("process_cpu_seconds_total 12\nhttp_requests_total 3\n");
  EXPECT_EQ(snapshot.family, ServerFamily::unknown);
  EXPECT_FALSE(snapshot.prompt_tokens.has_value());
  EXPECT_FALSE(snapshot.requests_running.has_value());
}

TEST(Snapshot, DetectsTheFamilyMostNamesCarry) {
  // A router in front of vLLM may add a few names of its own kind; the majority decides.
  const auto result = parse_exposition(
      "tgi_queue_size 1\nvllm:num_requests_running 1\nvllm:num_requests_waiting 0\n");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(detect_family(result.exposition), ServerFamily::vllm);
  EXPECT_EQ(to_string(ServerFamily::llamacpp), "llama.cpp");
}

}  // namespace

namespace {

// A DCGM exporter's scrape (NVIDIA/dcgm-exporter's default counters, two GPUs): energy in mJ
// summed to joules, power in W summed, whatever the server family (here none).
TEST(Snapshot, ReadsTheGpusEnergyAndPowerInDcgmsNamesAndUnits) {
  const Snapshot snapshot = snapshot_of(
      "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
      "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
      "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",device=\"nvidia0\"} 301.5\n"
      "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\",device=\"nvidia1\"} 298.5\n"
      "# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in mJ).\n"
      "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
      "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-a\",device=\"nvidia0\"} 1500\n"
      "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"1\",UUID=\"GPU-b\",device=\"nvidia1\"} 2500\n");
  EXPECT_EQ(snapshot.family, ServerFamily::unknown);
  EXPECT_EQ(snapshot.gpu_energy_joules, 4.0);
  EXPECT_EQ(snapshot.gpu_power_watts, 600.0);
  EXPECT_EQ(snapshot.gpu_energy_series, 2);
}

TEST(Snapshot, ReadsAmdsEnergyInMicrojoules) {
  const Snapshot snapshot = snapshot_of(
      "gpu_energy_consumed{gpu_id=\"0\"} 2000000\n"
      "gpu_power_usage{gpu_id=\"0\"} 550\n");
  EXPECT_EQ(snapshot.gpu_energy_joules, 2.0);
  EXPECT_EQ(snapshot.gpu_power_watts, 550.0);
}

TEST(Snapshot, NoEnergyCounterIsUnknownNeverZero) {
  const Snapshot snapshot = snapshot_of("vllm:num_requests_running{model_name=\"m\"} 0\n");
  EXPECT_FALSE(snapshot.gpu_energy_joules.has_value());
  EXPECT_FALSE(snapshot.gpu_power_watts.has_value());
  bench::server_metrics::Snapshot before = snapshot;
  const auto delta = bench::server_metrics::delta_between(before, snapshot);
  EXPECT_FALSE(delta.gpu_energy_joules.has_value());
}

TEST(Snapshot, TheEnergyOfAWindowIsTheCountersGrowth) {
  const Snapshot before = snapshot_of("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\"} 1000\n");
  const Snapshot after = snapshot_of("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\"} 4500\n");
  EXPECT_EQ(bench::server_metrics::delta_between(before, after).gpu_energy_joules, 3.5);
  const auto reset = bench::server_metrics::delta_between(after, before);  // went down
  EXPECT_FALSE(reset.gpu_energy_joules.has_value());
}

}  // namespace
