// The gauges' poller on its own thread: a /metrics slower than the interval gets one scrape at a
// time (the ticks it overran are skipped and counted, never queued up), and stop() ends it
// without waiting for a scrape in flight.
#include "bench/app/server/server_metrics_poller.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "hostile_server.hpp"
#include "wait_count.hpp"

namespace {

using bench::app::MetricsPoller;
using bench::app::MetricsServer;
using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::WaitCount;

constexpr std::string_view kExposition =
    "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 2\n"
    "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 5\n";

// A /metrics that answers after `delay`, counting how many scrapes it has in hand at once.
struct SlowMetrics {
  explicit SlowMetrics(std::chrono::milliseconds delay)
      : server([this, delay](Exchange& exchange) {
          const int now = ++in_hand;
          taken.add();
          int seen = most_in_hand.load();
          while (now > seen && !most_in_hand.compare_exchange_weak(seen, now)) {
          }
          if (exchange.pause(delay)) {
            exchange.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                          std::to_string(kExposition.size()) + "\r\nConnection: close\r\n\r\n" +
                          std::string(kExposition));
            answered.add();
          }
          --in_hand;
        }) {}

  std::atomic<int> in_hand{0};
  std::atomic<int> most_in_hand{0};
  WaitCount taken;     // scrapes the server has begun to answer
  WaitCount answered;  // and answered whole
  HostileServer server;
};

MetricsServer metrics_server(const std::string& url, const std::vector<std::string>& headers) {
  MetricsServer server;
  server.url = url;
  server.headers = &headers;
  return server;
}

TEST(MetricsPoller, AScrapeSlowerThanTheIntervalSkipsTicksInsteadOfQueueingThem) {
  SlowMetrics slow(std::chrono::milliseconds(120));
  const std::vector<std::string> headers;
  const MetricsServer server = metrics_server(slow.server.base_url() + "/metrics", headers);
  MetricsPoller poller(server, 30'000'000);  // every 30 ms
  // Three slow scrapes answered: some 360 ms, a dozen 30 ms ticks.
  ASSERT_TRUE(slow.answered.wait_for_at_least(3, std::chrono::seconds(10)));
  const auto polls = poller.stop();
  EXPECT_EQ(slow.most_in_hand.load(), 1);  // one scrape at a time
  EXPECT_GE(polls.polls, 2u);
  EXPECT_LE(polls.polls, 5u);             // one per 120 ms scrape, not one per 30 ms tick
  EXPECT_GE(polls.skipped, polls.polls);  // each slow scrape overran at least 3 ticks
  EXPECT_GE(polls.slowest_scrape_s, 0.1);
  EXPECT_EQ(polls.failed, 0u);
  EXPECT_EQ(polls.series.totals().readings, polls.polls);
  EXPECT_DOUBLE_EQ(*polls.series.totals().requests_running.mean(), 2.0);
  EXPECT_DOUBLE_EQ(*polls.series.totals().requests_waiting.maximum(), 5.0);
}

TEST(MetricsPoller, StopDoesNotWaitForAScrapeInFlight) {
  SlowMetrics stuck(std::chrono::milliseconds(5'000));
  const std::vector<std::string> headers;
  const MetricsServer server = metrics_server(stuck.server.base_url() + "/metrics", headers);
  MetricsPoller poller(server, 10'000'000);
  ASSERT_TRUE(stuck.taken.wait_for_at_least(1, std::chrono::seconds(10)));  // one in hand
  const auto start = std::chrono::steady_clock::now();
  const auto polls = poller.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(polls.polls, 0u);  // the cancelled scrape is neither a reading nor a failure
  EXPECT_EQ(polls.failed, 0u);
}

}  // namespace
