// The tally behind the live snapshots: its counters count as the report does (completed measured
// requests' known tokens; warm-up and failures apart), its window percentiles are numpy's, and
// its window forgets what is older than it and restarts at each point.
#include "bench/live/tally.hpp"

#include <gtest/gtest.h>

#include "bench/metrics/percentile.hpp"
#include "live_samples.hpp"

namespace bench::live {
namespace {

using testing::completed;

constexpr std::int64_t kSecond = 1'000'000'000;

TEST(LiveTally, CountsTokensOfCompletedMeasuredRequestsOnly) {
  Tally tally(30);
  tally.add(sample_of(completed(100, 10, 20, 2), kSecond));
  metrics::RequestRecord warm = completed(50, 5, 20, 2);
  warm.warmup = true;
  tally.add(sample_of(warm, kSecond));
  metrics::RequestRecord failed = completed(70, 3, 20, 2);
  failed.error = metrics::ErrorClass::http_5xx;
  tally.add(sample_of(failed, kSecond));
  metrics::RequestRecord unknown = completed(0, 4, 20, 2);
  unknown.prompt_tokens = -1;
  tally.add(sample_of(unknown, kSecond));

  Snapshot snapshot;
  tally.fill(snapshot, kSecond);
  EXPECT_EQ(snapshot.measured.completed, 2);
  EXPECT_EQ(snapshot.measured.failed, 1);
  EXPECT_EQ(snapshot.warmup.completed, 1);
  EXPECT_EQ(snapshot.tokens.input, 100);  // the unknown one is in no sum, and not as 0
  EXPECT_EQ(snapshot.tokens.output, 14);
  EXPECT_EQ(snapshot.tokens.requests_input_unknown, 1);
  EXPECT_EQ(snapshot.tokens.input_split_unknown, 100);  // no cached count was said
  EXPECT_EQ(snapshot.tokens_per_request[1].count, 2U);
  EXPECT_DOUBLE_EQ(snapshot.tokens_per_request[1].sum, 14);
}

TEST(LiveTally, SplitsInputIntoCachedAndComputedWhenTheServerSaidSo) {
  Tally tally(30);
  metrics::RequestRecord record = completed(100, 2, 20, 2);
  record.cached_prompt_tokens = 64;
  record.cached_prompt_token_source = metrics::CachedTokenSource::usage_details;
  tally.add(sample_of(record, kSecond));
  Snapshot snapshot;
  tally.fill(snapshot, kSecond);
  EXPECT_EQ(snapshot.tokens.input_cached, 64);
  EXPECT_EQ(snapshot.tokens.input_computed, 36);
  EXPECT_EQ(snapshot.tokens.input_split_unknown, 0);
}

TEST(LiveTally, WindowPercentilesAreNumpysOverTheWindowsValues) {
  Tally tally(30);
  std::vector<double> ttft;
  for (int k = 1; k <= 11; ++k) {
    tally.add(sample_of(completed(10, 3, k * 3.0, 1), kSecond));
    ttft.push_back(k * 3.0);
  }
  Snapshot snapshot;
  tally.fill(snapshot, 2 * kSecond);
  const WindowFigures& figures = snapshot.window[static_cast<std::size_t>(Latency::ttft)];
  EXPECT_EQ(figures.values, 11U);
  for (std::size_t k = 0; k < kWindowPercentiles.size(); ++k) {
    ASSERT_TRUE(figures.percentiles[k]);
    EXPECT_DOUBLE_EQ(*figures.percentiles[k],
                     metrics::percentile_sorted(ttft, kWindowPercentiles[k]));
  }
  // ITL: two gaps of 1 ms per request.
  EXPECT_EQ(snapshot.window[static_cast<std::size_t>(Latency::itl)].values, 22U);
  EXPECT_EQ(snapshot.latency_seconds[static_cast<std::size_t>(Latency::itl)].count, 22U);
}

TEST(LiveTally, TheWindowForgetsOldValuesAndRestartsAtEachPoint) {
  Tally tally(10);
  tally.add(sample_of(completed(10, 2, 5, 1), 1 * kSecond));
  tally.add(sample_of(completed(10, 2, 7, 1), 8 * kSecond));
  Snapshot snapshot;
  tally.fill(snapshot, 15 * kSecond);  // the first ended 14 s ago, beyond the 10 s window
  const auto ttft = static_cast<std::size_t>(Latency::ttft);
  EXPECT_EQ(snapshot.window[ttft].values, 1U);
  EXPECT_DOUBLE_EQ(*snapshot.window[ttft].percentiles[0], 7);
  EXPECT_EQ(snapshot.latency_seconds[ttft].count, 2U);  // the histogram keeps everything
  tally.begin_point(16 * kSecond);
  Snapshot next;
  tally.fill(next, 16 * kSecond);
  EXPECT_EQ(next.window[ttft].values, 0U);
  EXPECT_FALSE(next.window[ttft].percentiles[0]);  // unknown, not 0
  EXPECT_EQ(next.measured.completed, 2);           // counters go on across points
}

}  // namespace
}  // namespace bench::live
