// The engine sends a schedule's first request on time however many concurrency slots it has
// (timing: judged against the wall clock, so run alone).
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
using bench_test::BurstSource;

// An open loop runs with a concurrency cap far above what it will use (bench passes tens of
// thousands of slots). Setting the slots up must not delay the schedule's first arrival, due
// the moment the run starts: it was 1.2-1.7 ms late at 65,534 slots when every free slot was an
// entry filled in before the first send.
TEST(EngineStartTiming, TheFirstArrivalIsSentOnTimeWithAMillionFreeSlots) {
  bench::sim::SimOptions sim;
  sim.ttft_ms = 1;
  sim.tpot_ms = 1;
  bench::sim::SimServer server(sim);
  EngineOptions options;
  options.concurrency = 1'000'000;
  Engine engine(options);
  const std::int64_t epoch_ns = bench::now_ns();
  BurstSource source(server.base_url() + "/v1/completions", 1, bench::kNsPerMs, epoch_ns);
  engine.run(source);
  const double late_ms =
      static_cast<double>(source.handlers[0]->send_ns - source.due_ns(0)) / bench::kNsPerMs;
  EXPECT_GE(late_ms, 0.0);
  // 190 ms late with a million slots filled in one by one; a generous bound for a busy host.
  EXPECT_LT(late_ms, 1.0);
}

}  // namespace
