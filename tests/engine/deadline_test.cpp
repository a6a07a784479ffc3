// The engine's own deadlines (time to first token, silence mid-stream) are timers: each fires
// at its time, not at the next socket read or the next periodic sweep.
#include <gtest/gtest.h>

#include "bench/engine/curl_handles.hpp"
#include "bench/engine/engine.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/util/clock.hpp"
#include "burst_source.hpp"
#include "curl_once.hpp"

namespace {

using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::metrics::ErrorClass;

using bench_test::BurstSource;
using bench_test::lateness_ms;

TEST(EngineDeadlines, AFirstTokenDueAfterTheLimitEndsEveryRequestAsATtftTimeout) {
  // The first token comes at 50 ms, the limit is 20 ms: no request may pass as "ok" because
  // its first token was read before a periodic check got round to it.
  bench::sim::SimOptions sim;
  sim.ttft_ms = 50;
  sim.tpot_ms = 5;
  bench::sim::SimServer server(sim);
  BurstSource source(server.base_url() + "/v1/completions", 16);
  EngineOptions options;
  options.concurrency = 16;
  options.ttft_timeout_ms = 20;
  Engine(options).run(source);
  for (const auto& handler : source.handlers) {
    EXPECT_EQ(handler->error, ErrorClass::ttft_timeout);
    EXPECT_FALSE(handler->got_body);
  }
  const std::vector<double> late = lateness_ms(source, 20);
  EXPECT_GE(late.front(), 0.0);
  EXPECT_LT(late.back(), 25.0);  // well before the first token would have come
}

TEST(EngineDeadlines, AStallMidStreamEndsTheRequestWhenTheSilenceReachesTheLimit) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 5;
  sim.tpot_ms = 2;
  sim.stall_fraction = 1.0;  // every stream goes silent once, for stall_s
  sim.stall_s = 2.0;
  bench::sim::SimServer server(sim);
  BurstSource source(server.base_url() + "/v1/completions", 4);
  EngineOptions options;
  options.concurrency = 4;
  options.stall_timeout_ms = 60;
  const std::int64_t start_ns = bench::now_ns();
  Engine(options).run(source);
  for (const auto& handler : source.handlers) {
    EXPECT_EQ(handler->error, ErrorClass::stall);
    EXPECT_TRUE(handler->got_body);
  }
  // Ended by the limit, long before the 2 s silence would have ended on its own.
  EXPECT_LT(bench::now_ns() - start_ns, 1500 * bench::kNsPerMs);
}

}  // namespace
