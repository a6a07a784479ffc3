// The servers' ITL, TPOT and queue-time histograms, in each family's names (hand-written in the
// shapes their source writes: vLLM's and SGLang's prometheus_client, TRT-LLM's collector, TGI's
// metrics-exporter-prometheus), their growth over a window, and their sum over several servers.
#include <gtest/gtest.h>

#include <string>

#include "bench/server_metrics/snapshot.hpp"
#include "scrape_helpers.hpp"

namespace {

using bench::server_metrics::Delta;
using bench::server_metrics::delta_between;
using bench::server_metrics::parse_exposition;
using bench::server_metrics::percentile_range;
using bench::server_metrics::read_snapshot;
using bench::server_metrics::ServerFamily;
using bench::server_metrics::Snapshot;
using bench::server_metrics::sum_of;
using bench::testing::snapshot_of;

// One histogram of two finite buckets: `low` observations <= `first`, `high` more <= `second`.
std::string histogram(const std::string& name, const std::string& labels, double first,
                      double second, int low, int high, double sum) {
  const std::string open = labels.empty() ? "{" : "{" + labels + ",";
  const std::string plain = labels.empty() ? "" : "{" + labels + "}";
  const auto number = [](double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text += '0';
    return text;
  };
  return "# TYPE " + name + " histogram\n" + name + "_bucket" + open + "le=\"" + number(first) +
         "\"} " + std::to_string(low) + "\n" + name + "_bucket" + open + "le=\"" + number(second) +
         "\"} " + std::to_string(low + high) + "\n" + name + "_bucket" + open + "le=\"+Inf\"} " +
         std::to_string(low + high) + "\n" + name + "_count" + plain + " " +
         std::to_string(low + high) + "\n" + name + "_sum" + plain + " " + number(sum) + "\n";
}

std::string vllm_latencies(int scale) {
  const std::string labels = "engine=\"0\",model_name=\"m\"";
  return "vllm:num_requests_running{" + labels + "} 0\n" +
         histogram("vllm:inter_token_latency_seconds", labels, 0.01, 0.025, 90 * scale, 10 * scale,
                   1.2 * scale) +
         histogram("vllm:request_time_per_output_token_seconds", labels, 0.01, 0.025, 4 * scale,
                   1 * scale, 0.055 * scale) +
         histogram("vllm:request_queue_time_seconds", labels, 0.3, 0.5, 4 * scale, 1 * scale,
                   0.75 * scale);
}

TEST(LatencyHistograms, VllmItlTpotAndQueueTimeAreRead) {
  const Snapshot snapshot = snapshot_of(vllm_latencies(1));
  EXPECT_EQ(snapshot.family, ServerFamily::vllm);
  ASSERT_TRUE(snapshot.itl_seconds.has_value());
  EXPECT_EQ(snapshot.itl_seconds->count, 100);
  EXPECT_EQ(snapshot.itl_seconds->buckets[0].upper_bound, 0.01);
  EXPECT_EQ(snapshot.itl_seconds->buckets[0].count, 90);
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 5);
  EXPECT_DOUBLE_EQ(snapshot.tpot_seconds->sum, 0.055);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  EXPECT_EQ(snapshot.queue_time_seconds->buckets[1].upper_bound, 0.5);
  EXPECT_DOUBLE_EQ(snapshot.queue_time_seconds->sum, 0.75);
}

TEST(LatencyHistograms, OlderVllmsTimePerOutputTokenIsItsItl) {
  // Before vLLM 0.10, the per-step histogram was named time_per_output_token_seconds, and there
  // was no per-request TPOT.
  const Snapshot snapshot =
      snapshot_of("vllm:num_requests_running 0\n" +
                  histogram("vllm:time_per_output_token_seconds", "", 0.01, 0.025, 3, 1, 0.04));
  ASSERT_TRUE(snapshot.itl_seconds.has_value());
  EXPECT_EQ(snapshot.itl_seconds->count, 4);
  EXPECT_FALSE(snapshot.tpot_seconds.has_value());
  EXPECT_FALSE(snapshot.queue_time_seconds.has_value());
}

TEST(LatencyHistograms, SglangsItlCountsEveryTokenOfAGap) {
  // observe_inter_token_latency: a 0.03 s gap ending 3 tokens adds 3 to the 0.01 bucket's count
  // and 0.03 (the whole gap) to the sum. Its queue-time buckets start at 0.0.
  const std::string labels = "model_name=\"m\"";
  const Snapshot snapshot = snapshot_of(
      "sglang:num_running_reqs{" + labels + "} 0\n" +
      histogram("sglang:inter_token_latency_seconds", labels, 0.01, 0.015, 3, 0, 0.03) +
      histogram("sglang:time_per_output_token_seconds", labels, 0.01, 0.015, 1, 1, 0.022) +
      histogram("sglang:queue_time_seconds", labels, 0.0, 0.1, 2, 2, 0.1));
  EXPECT_EQ(snapshot.family, ServerFamily::sglang);
  ASSERT_TRUE(snapshot.itl_seconds.has_value());
  EXPECT_EQ(snapshot.itl_seconds->count, 3);
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 2);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  const auto p50 = percentile_range(*snapshot.queue_time_seconds, 50);
  ASSERT_TRUE(p50.has_value());
  EXPECT_EQ(p50->lower, 0);  // half the requests did not wait at all: the le="0.0" bucket
  EXPECT_EQ(p50->upper, 0);
  EXPECT_EQ(percentile_range(*snapshot.queue_time_seconds, 99)->upper, 0.1);
}

TEST(LatencyHistograms, TrtllmHasTpotAndQueueTimeButNoItl) {
  const Snapshot snapshot = snapshot_of(
      "trtllm_num_requests_running{model_name=\"m\",engine_type=\"trtllm\"} 0\n" +
      histogram("trtllm_time_per_output_token_seconds", "model_name=\"m\"", 0.01, 0.025, 6, 2,
                0.09) +
      histogram("trtllm_request_queue_time_seconds", "model_name=\"m\"", 0.3, 0.5, 8, 0, 0.2));
  EXPECT_EQ(snapshot.family, ServerFamily::trtllm);
  EXPECT_FALSE(snapshot.itl_seconds.has_value());
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 8);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  EXPECT_EQ(snapshot.queue_time_seconds->count, 8);
}

TEST(LatencyHistograms, TgisMeanTimePerTokenIsItsTpot) {
  const Snapshot snapshot =
      snapshot_of("tgi_queue_size 0\n" +
                  histogram("tgi_request_mean_time_per_token_duration", "", 0.01, 0.05, 1, 3, 0.1) +
                  histogram("tgi_request_queue_duration", "", 0.0001, 0.001, 4, 0, 0.0002));
  EXPECT_EQ(snapshot.family, ServerFamily::tgi);
  EXPECT_FALSE(snapshot.itl_seconds.has_value());
  ASSERT_TRUE(snapshot.tpot_seconds.has_value());
  EXPECT_EQ(snapshot.tpot_seconds->count, 4);
  ASSERT_TRUE(snapshot.queue_time_seconds.has_value());
  EXPECT_DOUBLE_EQ(snapshot.queue_time_seconds->sum, 0.0002);
}

TEST(LatencyHistograms, LlamaCppHasNone) {
  const Snapshot snapshot = snapshot_of("llamacpp:requests_processing 1\n");
  EXPECT_EQ(snapshot.family, ServerFamily::llamacpp);
  EXPECT_FALSE(snapshot.itl_seconds.has_value());
  EXPECT_FALSE(snapshot.tpot_seconds.has_value());
  EXPECT_FALSE(snapshot.queue_time_seconds.has_value());
}

TEST(LatencyHistograms, TheWindowHoldsTheirGrowth) {
  const Delta delta = delta_between(snapshot_of(vllm_latencies(1)), snapshot_of(vllm_latencies(3)));
  EXPECT_TRUE(delta.notes.empty());
  ASSERT_TRUE(delta.itl_seconds.has_value());
  EXPECT_EQ(delta.itl_seconds->count, 200);
  EXPECT_EQ(delta.itl_seconds->buckets[0].count, 180);
  ASSERT_TRUE(delta.tpot_seconds.has_value());
  EXPECT_DOUBLE_EQ(delta.tpot_seconds->sum, 0.11);
  ASSERT_TRUE(delta.queue_time_seconds.has_value());
  EXPECT_EQ(delta.queue_time_seconds->count, 10);
  EXPECT_DOUBLE_EQ(delta.queue_time_seconds->sum, 1.5);
}

TEST(LatencyHistograms, ChangedBucketsLeaveTheQueueTimeUnknown) {
  const Snapshot before = snapshot_of(vllm_latencies(1));
  Snapshot after = snapshot_of(vllm_latencies(2));
  after.queue_time_seconds->buckets[0].upper_bound = 0.25;
  const Delta delta = delta_between(before, after);
  EXPECT_FALSE(delta.queue_time_seconds.has_value());
  EXPECT_TRUE(delta.itl_seconds.has_value());
  ASSERT_EQ(delta.notes.size(), 1u);
  EXPECT_EQ(delta.notes[0], "queue time: the buckets changed between the scrapes");
}

TEST(LatencyHistograms, SeveralServersAddUp) {
  const Delta one = delta_between(snapshot_of(vllm_latencies(1)), snapshot_of(vllm_latencies(2)));
  const Delta total = sum_of({one, one});
  ASSERT_TRUE(total.itl_seconds.has_value());
  EXPECT_EQ(total.itl_seconds->count, 200);
  ASSERT_TRUE(total.tpot_seconds.has_value());
  EXPECT_EQ(total.tpot_seconds->count, 10);
  ASSERT_TRUE(total.queue_time_seconds.has_value());
  EXPECT_DOUBLE_EQ(total.queue_time_seconds->sum, 1.5);
}

}  // namespace
