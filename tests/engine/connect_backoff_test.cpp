// A closed loop's slot waits after its request could not connect (engine/connect_backoff.hpp):
// 50 ms doubled per failure in a row up to the cap, so a dead server costs a few requests a
// second instead of tens of thousands.
#include <gtest/gtest.h>

#include <cstdint>

#include "bench/engine/connect_backoff.hpp"
#include "bench/engine/engine.hpp"
#include "bench/util/clock.hpp"
#include "burst_source.hpp"
#include "hostile_server.hpp"

namespace connect_backoff_test {

using bench::engine::connect_backoff_ms;
using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::engine::is_connection_failure;
using bench::metrics::ErrorClass;

TEST(ConnectBackoff, DoublesFromFiftyMillisecondsUpToTheCap) {
  EXPECT_EQ(connect_backoff_ms(1, 1000), 50);
  EXPECT_EQ(connect_backoff_ms(2, 1000), 100);
  EXPECT_EQ(connect_backoff_ms(5, 1000), 800);
  EXPECT_EQ(connect_backoff_ms(6, 1000), 1000);
  EXPECT_EQ(connect_backoff_ms(1'000'000, 1000), 1000);
  EXPECT_EQ(connect_backoff_ms(3, 120), 120);
  EXPECT_EQ(connect_backoff_ms(3, 0), 0);
  EXPECT_EQ(connect_backoff_ms(0, 1000), 0);
}

TEST(ConnectBackoff, OnlyAFailureToConnectIsOne) {
  EXPECT_TRUE(is_connection_failure(ErrorClass::connect_refused));
  EXPECT_TRUE(is_connection_failure(ErrorClass::connect_timeout));
  EXPECT_TRUE(is_connection_failure(ErrorClass::dns));
  EXPECT_FALSE(is_connection_failure(ErrorClass::transport));
  EXPECT_FALSE(is_connection_failure(ErrorClass::tls));
  EXPECT_FALSE(is_connection_failure(ErrorClass::http_5xx));
  EXPECT_FALSE(is_connection_failure(ErrorClass::none));
}

// One slot, five requests due at once, every connection refused: each request after the first
// is sent no sooner than its slot's wait after the one before ended (a lower bound: a busy host
// only makes it later), and every one is sent and ends, none dropped.
TEST(ConnectBackoff, ASlotWaitsLongerAfterEachRefusedConnection) {
  const bench::testing::ClosedPort port;
  EngineOptions options;
  options.concurrency = 1;
  options.connect_backoff_max_ms = 200;
  Engine engine(options);
  bench_test::BurstSource source(port.base_url() + "/v1/completions", 5);
  const auto stats = engine.run(source);
  EXPECT_EQ(stats.started, 5);
  EXPECT_EQ(stats.finished, 5);
  for (std::size_t i = 0; i < source.handlers.size(); ++i) {
    EXPECT_EQ(source.handlers[i]->error, ErrorClass::connect_refused) << i;
    if (i == 0) continue;
    const std::int64_t waited_ns = source.handlers[i]->send_ns - source.handlers[i - 1]->end_ns;
    EXPECT_GE(waited_ns, connect_backoff_ms(static_cast<int>(i), 200) * bench::kNsPerMs) << i;
  }
}

}  // namespace connect_backoff_test
