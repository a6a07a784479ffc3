// The snapshot as Prometheus text: bench's own exposition parser (the strict one that reads
// servers' /metrics) accepts it whole, families carry their types, histogram buckets are
// cumulative up to +Inf, a shard labels every sample, and an unknown percentile is no sample.
#include "bench/live/exposition.hpp"

#include <gtest/gtest.h>

#include "bench/live/tally.hpp"
#include "bench/server_metrics/exposition.hpp"
#include "live_samples.hpp"

namespace bench::live {
namespace {

namespace sm = bench::server_metrics;
using testing::completed;

Snapshot snapshot_of_two_requests(const std::string& shard = "") {
  Tally tally(30);
  tally.add(sample_of(completed(100, 4, 20, 2), 1'000'000'000));
  tally.add(sample_of(completed(60, 8, 40, 3), 1'000'000'000));
  Snapshot snapshot;
  snapshot.shard = shard;
  snapshot.point = "c=\"4\"";
  snapshot.point_index = 0;
  snapshot.in_flight = 3;
  tally.fill(snapshot, 1'000'000'000);
  return snapshot;
}

const sm::Sample* find(const sm::Family& family, std::string_view name, std::string_view label,
                       std::string_view value) {
  for (const sm::Sample& sample : family.samples) {
    const std::string* has = sample.label(label);
    if (sample.name == name && has != nullptr && *has == value) return &sample;
  }
  return nullptr;
}

TEST(LiveExposition, ParsesAsPrometheusTextWithTypedFamilies) {
  const sm::ParseResult parsed = sm::parse_exposition(prometheus_text(snapshot_of_two_requests()));
  ASSERT_TRUE(parsed.ok()) << parsed.error->describe();
  const sm::Exposition& metrics = parsed.exposition;
  ASSERT_NE(metrics.family("bench_requests_total"), nullptr);
  EXPECT_EQ(metrics.family("bench_requests_total")->type, sm::MetricType::counter);
  EXPECT_EQ(metrics.family("bench_requests_in_flight")->type, sm::MetricType::gauge);
  EXPECT_EQ(metrics.family("bench_ttft_seconds")->type, sm::MetricType::histogram);
  EXPECT_EQ(metrics.family("gen_ai_client_token_usage")->type, sm::MetricType::histogram);
  const sm::Family& tokens = *metrics.family("bench_tokens_total");
  EXPECT_EQ(find(tokens, "bench_tokens_total", "gen_ai_token_type", "input")->value, 160);
  EXPECT_EQ(find(tokens, "bench_tokens_total", "gen_ai_token_type", "output")->value, 12);
  // The point's label keeps its quotes through the escapes.
  EXPECT_EQ(*metrics.family("bench_point_info")->samples.at(0).label("point"), "c=\"4\"");
}

TEST(LiveExposition, HistogramBucketsAreCumulativeUpToInf) {
  const sm::ParseResult parsed = sm::parse_exposition(prometheus_text(snapshot_of_two_requests()));
  ASSERT_TRUE(parsed.ok());
  const sm::Family& ttft = *parsed.exposition.family("bench_ttft_seconds");
  double previous = 0;
  for (const sm::Sample& sample : ttft.samples) {
    if (sample.name != "bench_ttft_seconds_bucket") continue;
    EXPECT_GE(sample.value, previous);
    previous = sample.value;
  }
  EXPECT_EQ(find(ttft, "bench_ttft_seconds_bucket", "le", "+Inf")->value, 2);
  EXPECT_EQ(find(ttft, "bench_ttft_seconds_bucket", "le", "0.02")->value, 1);  // 20 ms: le is <=
  EXPECT_EQ(find(ttft, "bench_ttft_seconds_bucket", "le", "0.015")->value, 0);
}

TEST(LiveExposition, AShardLabelsEverySample) {
  const sm::ParseResult parsed =
      sm::parse_exposition(prometheus_text(snapshot_of_two_requests("3")));
  ASSERT_TRUE(parsed.ok()) << parsed.error->describe();
  for (const sm::Family& family : parsed.exposition.families) {
    for (const sm::Sample& sample : family.samples) {
      ASSERT_NE(sample.label("shard"), nullptr) << sample.name;
      EXPECT_EQ(*sample.label("shard"), "3");
    }
  }
}

TEST(LiveExposition, WindowGaugesInSecondsAndNoneWhenUnknown) {
  Snapshot snapshot = snapshot_of_two_requests();
  const std::string text = prometheus_text(snapshot);
  const sm::ParseResult parsed = sm::parse_exposition(text);
  ASSERT_TRUE(parsed.ok());
  const sm::Family& window = *parsed.exposition.family("bench_window_latency_seconds");
  const sm::Sample* p50 = nullptr;
  for (const sm::Sample& sample : window.samples) {
    if (*sample.label("latency") == "ttft" && *sample.label("percentile") == "50") p50 = &sample;
    EXPECT_EQ(*sample.label("window"), "30s");
  }
  ASSERT_NE(p50, nullptr);
  EXPECT_DOUBLE_EQ(p50->value, 0.030);  // numpy's median of 20 and 40 ms

  Snapshot empty;
  const std::string none = prometheus_text(empty);
  EXPECT_EQ(none.find("bench_window_latency_seconds{"), std::string::npos) << none;
}

}  // namespace
}  // namespace bench::live
