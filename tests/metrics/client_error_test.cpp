// The client-error join on hand-made times: each figure's client-minus-server difference per
// request, joined by response id, with the requests it cannot pair counted rather than guessed.
#include "bench/metrics/client_error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace client_error_test {

using bench::metrics::bound_exceeds_share;
using bench::metrics::client_error;
using bench::metrics::StreamTimes;

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

// The server's side: arrival at a large monotonic time, chunks at +10, +20, +30 ms, end +31 ms.
StreamTimes server(const std::string& id, std::int64_t tokens = 3) {
  const std::int64_t at = 5'000 * kMs;
  return {id, at, {at + 10 * kMs, at + 20 * kMs, at + 30 * kMs}, at + 31 * kMs, tokens};
}

TEST(ClientError, EachFigureIsTheClientMinusTheServerOnTheSameRequest) {
  // The client's own epoch: sent at 0, first chunk 0.5 ms late, the second gap 0.2 ms long,
  // the third on time, the end 0.9 ms after the server's.
  const std::vector<StreamTimes> client = {
      {"cmpl-1", 0, {10'500 * kUs, 20'700 * kUs, 30'700 * kUs}, 31'900 * kUs, 99}};
  const std::vector<StreamTimes> truth = {server("cmpl-1")};
  const auto e = client_error(client, truth);
  EXPECT_EQ(e.joined, 1);
  EXPECT_EQ(e.client_only, 0);
  ASSERT_TRUE(e.ttft && e.itl && e.tpot && e.e2e);
  EXPECT_NEAR(e.ttft->max_ms, 0.5, 1e-9);
  EXPECT_NEAR(e.e2e->max_ms, 0.9, 1e-9);
  EXPECT_EQ(e.itl->count, 2);
  EXPECT_NEAR(e.itl->max_ms, 0.2, 1e-9);
  EXPECT_NEAR(e.itl->p50_ms, 0.1, 1e-9);
  // TPOT: (31.9 - 10.5) / 2 - (31 - 10) / 2, with the server's 3 tokens, not the client's 99.
  EXPECT_NEAR(e.tpot->max_ms, 0.2, 1e-9);
}

TEST(ClientError, AnEarlyClientGapCountsAsMuchAsALateOne) {
  // The first gap 0.3 ms short (a late first chunk read together with the second).
  const std::vector<StreamTimes> client = {
      {"a", 0, {10'300 * kUs, 20'000 * kUs, 30'000 * kUs}, 31 * kMs, 3}};
  const std::vector<StreamTimes> truth = {server("a")};
  const auto e = client_error(client, truth);
  ASSERT_TRUE(e.itl);
  EXPECT_NEAR(e.itl->max_ms, 0.3, 1e-9);
}

TEST(ClientError, RequestsTheTruthDoesNotHoldAreCountedNotJoined) {
  const std::vector<StreamTimes> client = {{"nobody", 0, {10 * kMs}, 11 * kMs, 1}};
  const std::vector<StreamTimes> truth = {server("somebody")};
  const auto e = client_error(client, truth);
  EXPECT_EQ(e.joined, 0);
  EXPECT_EQ(e.client_only, 1);
  EXPECT_FALSE(e.ttft.has_value());
  EXPECT_FALSE(e.itl.has_value());
  EXPECT_FALSE(e.e2e.has_value());
}

TEST(ClientError, DifferentChunkCountsGiveNoGapsButTheOtherFigures) {
  const std::vector<StreamTimes> client = {{"b", 0, {10 * kMs, 30 * kMs}, 31 * kMs, 3}};
  const std::vector<StreamTimes> truth = {server("b")};
  const auto e = client_error(client, truth);
  EXPECT_EQ(e.joined, 1);
  EXPECT_EQ(e.chunk_mismatch, 1);
  EXPECT_FALSE(e.itl.has_value());
  ASSERT_TRUE(e.ttft.has_value());
  EXPECT_NEAR(e.ttft->max_ms, 0.0, 1e-9);
}

TEST(ClientError, OneTokenAnswersHaveNoTpotError) {
  const std::vector<StreamTimes> client = {{"c", 0, {10 * kMs}, 11 * kMs, 1}};
  const std::vector<StreamTimes> truth = {{"c", 7 * kMs, {16 * kMs}, 18 * kMs, 1}};
  const auto e = client_error(client, truth);
  EXPECT_FALSE(e.tpot.has_value());
  ASSERT_TRUE(e.e2e.has_value());
  EXPECT_NEAR(e.e2e->max_ms, 0.0, 1e-9);
  EXPECT_NEAR(e.ttft->max_ms, 1.0, 1e-9);
}

TEST(ClientError, PercentilesAreOverTheJoinedRequests) {
  // 101 requests, request i's first chunk i * 10 us late: p50 0.5 ms, p99 0.99 ms, max 1 ms.
  std::vector<StreamTimes> client, truth;
  for (int i = 0; i <= 100; ++i) {
    const std::string id = "r" + std::to_string(i);
    truth.push_back(server(id));
    client.push_back({id,
                      0,
                      {10 * kMs + i * 10 * kUs, 20 * kMs + i * 10 * kUs, 30 * kMs + i * 10 * kUs},
                      31 * kMs + i * 10 * kUs,
                      3});
  }
  const auto e = client_error(client, truth);
  EXPECT_EQ(e.joined, 101);
  ASSERT_TRUE(e.ttft.has_value());
  EXPECT_NEAR(e.ttft->p50_ms, 0.5, 1e-9);
  EXPECT_NEAR(e.ttft->p99_ms, 0.99, 1e-9);
  EXPECT_NEAR(e.ttft->max_ms, 1.0, 1e-9);
  EXPECT_NEAR(e.ttft->figure_p99_ms, 10.99, 1e-9);  // the client's own TTFT p99
  EXPECT_NEAR(e.itl->max_ms, 0.0, 1e-9);            // every gap kept its length
  EXPECT_NEAR(e.itl->figure_p99_ms, 10.0, 1e-9);
}

TEST(ClientError, ABoundOverItsShareOfTheFigureIsFlagged) {
  EXPECT_FALSE(bound_exceeds_share(0.12, 3.41, 0.05));
  EXPECT_TRUE(bound_exceeds_share(0.2, 3.41, 0.05));
  EXPECT_FALSE(bound_exceeds_share(0.2, 3.41, 0.10));
  EXPECT_TRUE(bound_exceeds_share(0.01, 0.0, 0.05));
}

}  // namespace client_error_test
