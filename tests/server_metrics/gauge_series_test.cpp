// The polled gauges kept in bounded memory: the mean and max are exact over every reading,
// a gauge the server does not expose stays unknown, and the time series halves its resolution
// when it fills instead of growing with the run.
#include "bench/server_metrics/gauge_series.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "scrape_helpers.hpp"

namespace {

using bench::server_metrics::GaugeReading;
using bench::server_metrics::GaugeSeries;
using bench::server_metrics::GaugeStat;
using bench::testing::reading;

TEST(GaugeSeries, MeanAndMaxOverEveryReading) {
  GaugeSeries series;
  series.add(reading(0, 2, 0, 0.25));
  series.add(reading(10, 6, 3, 0.75));
  series.add(reading(20, 4, 0, 0.5));
  const auto& totals = series.totals();
  EXPECT_EQ(totals.readings, 3u);
  EXPECT_DOUBLE_EQ(*totals.requests_running.mean(), 4.0);
  EXPECT_DOUBLE_EQ(*totals.requests_running.maximum(), 6.0);
  EXPECT_DOUBLE_EQ(*totals.requests_waiting.mean(), 1.0);
  EXPECT_DOUBLE_EQ(*totals.requests_waiting.maximum(), 3.0);
  EXPECT_DOUBLE_EQ(*totals.kv_cache_usage_ratio.mean(), 0.5);
  EXPECT_DOUBLE_EQ(*totals.kv_cache_usage_ratio.maximum(), 0.75);
  EXPECT_EQ(totals.start_ns, 0);
  EXPECT_EQ(totals.end_ns, 20);
}

TEST(GaugeSeries, AGaugeNeverExposedIsUnknownNotZero) {
  GaugeSeries series;
  series.add(reading(0, 1, std::nullopt, std::nullopt));
  series.add(reading(1, 3, std::nullopt, std::numeric_limits<double>::quiet_NaN()));
  EXPECT_DOUBLE_EQ(*series.totals().requests_running.mean(), 2.0);
  EXPECT_FALSE(series.totals().requests_waiting.mean().has_value());
  EXPECT_FALSE(series.totals().requests_waiting.maximum().has_value());
  EXPECT_FALSE(series.totals().kv_cache_usage_ratio.mean().has_value());
}

TEST(GaugeStat, NegativeReadingsHaveANegativeMax) {
  GaugeStat stat;
  stat.add(-3.0);
  stat.add(-1.0);
  EXPECT_DOUBLE_EQ(*stat.maximum(), -1.0);
  EXPECT_DOUBLE_EQ(*stat.mean(), -2.0);
}

TEST(GaugeSeries, KeepsOnePointPerReadingUntilFull) {
  GaugeSeries series(8);
  for (int i = 0; i < 8; ++i) series.add(reading(i, i, 0, 0));
  EXPECT_EQ(series.points().size(), 8u);
  EXPECT_EQ(series.readings_per_point(), 1u);
  EXPECT_DOUBLE_EQ(*series.points()[5].requests_running.mean(), 5.0);
}

TEST(GaugeSeries, HalvesItsResolutionWhenFullAndStaysBounded) {
  GaugeSeries series(8);
  for (int i = 0; i < 9; ++i) series.add(reading(i, i, 0, 0));
  // Eight single readings became four pairs; the ninth starts a fifth point.
  ASSERT_EQ(series.points().size(), 5u);
  EXPECT_EQ(series.readings_per_point(), 2u);
  EXPECT_EQ(series.points()[0].readings, 2u);
  EXPECT_EQ(series.points()[0].start_ns, 0);
  EXPECT_EQ(series.points()[0].end_ns, 1);
  EXPECT_DOUBLE_EQ(*series.points()[1].requests_running.mean(), 2.5);
  EXPECT_DOUBLE_EQ(*series.points()[1].requests_running.maximum(), 3.0);
  EXPECT_EQ(series.points()[4].readings, 1u);

  // A day of readings a second: never more points than the cap, the whole run still covered.
  GaugeSeries day(64);
  constexpr int kReadings = 86'400;
  for (int i = 0; i < kReadings; ++i) day.add(reading(i, i % 7, 0, 0));
  EXPECT_LE(day.points().size(), 64u);
  EXPECT_GE(day.points().size(), 32u);
  EXPECT_EQ(day.points().front().start_ns, 0);
  EXPECT_EQ(day.points().back().end_ns, kReadings - 1);
  std::size_t covered = 0;
  for (const auto& point : day.points()) covered += point.readings;
  EXPECT_EQ(covered, static_cast<std::size_t>(kReadings));
  EXPECT_EQ(day.totals().readings, static_cast<std::size_t>(kReadings));
  EXPECT_DOUBLE_EQ(*day.totals().requests_running.maximum(), 6.0);
}

}  // namespace
