// The polled gauges laid onto the timeline's buckets: each bucket holds the mean of the readings
// inside it, unknown (never 0) where it holds none, and a halved series still lands its readings
// in the buckets they were taken in.
#include "bench/server_metrics/gauge_buckets.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "scrape_helpers.hpp"

namespace {

using bench::server_metrics::bucket_gauges;
using bench::server_metrics::BucketGauges;
using bench::server_metrics::BucketSpan;
using bench::server_metrics::combine_servers;
using bench::server_metrics::GaugeReading;
using bench::server_metrics::GaugeSeries;
using bench::testing::reading;

constexpr std::int64_t kSecond = 1'000'000'000;

// Buckets of one second from `first_s`, `count` of them.
std::vector<BucketSpan> seconds(std::int64_t first_s, std::size_t count) {
  std::vector<BucketSpan> spans;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t start = (first_s + static_cast<std::int64_t>(i)) * kSecond;
    spans.push_back({start, start + kSecond});
  }
  return spans;
}

TEST(GaugeBuckets, EachBucketHoldsTheMeanOfTheReadingsInsideIt) {
  GaugeSeries series;
  series.add(reading(kSecond / 4, 2, 0, 0.2));
  series.add(reading(3 * kSecond / 4, 4, 2, 0.4));
  series.add(reading(kSecond + kSecond / 2, 8, 1, 0.9));
  const std::vector<BucketSpan> spans = seconds(0, 2);
  const std::vector<BucketGauges> out = bucket_gauges(series, spans);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(*out[0].requests_running, 3.0);
  EXPECT_DOUBLE_EQ(*out[0].requests_waiting, 1.0);
  EXPECT_DOUBLE_EQ(*out[0].kv_cache_usage_ratio, 0.3);
  EXPECT_DOUBLE_EQ(*out[1].requests_running, 8.0);
  EXPECT_DOUBLE_EQ(*out[1].kv_cache_usage_ratio, 0.9);
}

TEST(GaugeBuckets, ABucketWithoutAReadingIsUnknownNotZero) {
  GaugeSeries series;
  series.add(reading(kSecond / 2, 5, 0, 0.5));
  series.add(reading(2 * kSecond + kSecond / 2, 7, 0, 0.7));
  const std::vector<BucketSpan> spans = seconds(0, 3);
  const std::vector<BucketGauges> out = bucket_gauges(series, spans);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[1].requests_running.has_value());
  EXPECT_FALSE(out[1].requests_waiting.has_value());
  EXPECT_FALSE(out[1].kv_cache_usage_ratio.has_value());
  EXPECT_DOUBLE_EQ(*out[2].requests_running, 7.0);
}

TEST(GaugeBuckets, AGaugeTheServerDoesNotExposeStaysUnknownBesideTheOthers) {
  GaugeSeries series;
  series.add(reading(kSecond / 2, 5, std::nullopt, std::nullopt));
  const std::vector<BucketSpan> spans = seconds(0, 1);
  const std::vector<BucketGauges> out = bucket_gauges(series, spans);
  EXPECT_DOUBLE_EQ(*out[0].requests_running, 5.0);
  EXPECT_FALSE(out[0].requests_waiting.has_value());
  EXPECT_FALSE(out[0].kv_cache_usage_ratio.has_value());
}

// Readings before the first measured request (the warm-up, the gap before the epoch) and after
// the last bucket describe no bucket.
TEST(GaugeBuckets, ReadingsOutsideTheBucketsCountNowhere) {
  GaugeSeries series;
  series.add(reading(0, 100, 0, 1.0));            // before the buckets
  series.add(reading(kSecond + 10, 3, 0, 0.3));   // inside
  series.add(reading(4 * kSecond, 100, 0, 1.0));  // at the last bucket's end: outside
  const std::vector<BucketSpan> spans = seconds(1, 3);
  const std::vector<BucketGauges> out = bucket_gauges(series, spans);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_DOUBLE_EQ(*out[0].requests_running, 3.0);
  EXPECT_FALSE(out[1].requests_running.has_value());
  EXPECT_FALSE(out[2].requests_running.has_value());
}

// A series of 2 points that has halved twice holds 4 readings a point; its readings one a
// second still fall one into each one-second bucket, each bucket taking its point's mean.
TEST(GaugeBuckets, AHalvedSeriesSpreadsEachPointOverTheBucketsItsReadingsFellIn) {
  GaugeSeries series(2);
  for (int i = 0; i < 8; ++i) {
    series.add(reading(i * kSecond + kSecond / 2, i < 4 ? 2 : 6, 0, std::nullopt));
  }
  ASSERT_EQ(series.readings_per_point(), 4u);
  const std::vector<BucketSpan> spans = seconds(0, 8);
  const std::vector<BucketGauges> out = bucket_gauges(series, spans);
  for (std::size_t i = 0; i < 8; ++i) {
    ASSERT_TRUE(out[i].requests_running.has_value()) << "bucket " << i;
    EXPECT_DOUBLE_EQ(*out[i].requests_running, i < 4 ? 2.0 : 6.0) << "bucket " << i;
    EXPECT_FALSE(out[i].kv_cache_usage_ratio.has_value());
  }
}

TEST(GaugeBuckets, ServersAddTheirRequestsAndShowTheFullestCache) {
  const std::vector<BucketGauges> a = {{2.0, 1.0, 0.5}, {2.0, std::nullopt, 0.5}};
  const std::vector<BucketGauges> b = {{3.0, 0.0, 0.8}, {std::nullopt, 1.0, 0.1}};
  const std::vector<BucketGauges> out = combine_servers({a, b});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(*out[0].requests_running, 5.0);
  EXPECT_DOUBLE_EQ(*out[0].requests_waiting, 1.0);
  EXPECT_DOUBLE_EQ(*out[0].kv_cache_usage_ratio, 0.8);
  EXPECT_FALSE(out[1].requests_running.has_value());  // one server's is unknown
  EXPECT_FALSE(out[1].requests_waiting.has_value());
  EXPECT_DOUBLE_EQ(*out[1].kv_cache_usage_ratio, 0.5);
}

}  // namespace
