// The self-check's two verdicts on constructed figures: the client's own work (its loop's CPU
// share) against its host's delay (late sleeps, lateness its wait for a CPU accounts for).
#include "bench/app/point/client_verdict.hpp"

#include <gtest/gtest.h>

namespace {

using bench::app::ClientLateness;
using bench::app::judge_client;
using bench::metrics::ClientLoad;

// An event loop that used 4% of a core and ran every sleep on time.
ClientLoad idle_loop() {
  ClientLoad load;
  load.busiest_thread_utilization = 0.04;
  load.busiest_thread_demand = 0.05;
  load.loop_turns = 4000;
  load.timer_wakes = 500;
  return load;
}

TEST(ClientVerdict, AnIdleLoopIsNeverClientBoundHoweverLateItRan) {
  ClientLoad load = idle_loop();
  load.slow_loop_turns = 2000;  // half its turns over 1 ms
  load.longest_loop_turn_ns = 80'000'000;
  load.timer_wakes = 500;
  load.late_timer_wakes = 400;
  load.run_queue_wait_s = 0.0;
  const ClientLateness lateness{50.0, 1000};  // p99 lag 50 ms
  EXPECT_FALSE(judge_client(load, lateness).client_bound);
  load.run_queue_wait_s.reset();
  EXPECT_FALSE(judge_client(load, lateness).client_bound);
}

TEST(ClientVerdict, ALoopUsingOverEightyPercentOfACoreIsClientBound) {
  ClientLoad load = idle_loop();
  load.busiest_thread_utilization = 0.80;
  load.busiest_thread_demand = 0.85;
  EXPECT_FALSE(judge_client(load, ClientLateness{}).client_bound);
  load.busiest_thread_utilization = 0.81;
  EXPECT_TRUE(judge_client(load, ClientLateness{}).client_bound);
  EXPECT_FALSE(judge_client(load, ClientLateness{}).host_late);
  // Over half a core, and late: its work queued behind itself.
  load.busiest_thread_utilization = 0.51;
  EXPECT_FALSE(judge_client(load, ClientLateness{0.9, 1000}).client_bound);
  EXPECT_TRUE(judge_client(load, ClientLateness{1.5, 1000}).client_bound);
  load.busiest_thread_utilization = 0.50;
  EXPECT_FALSE(judge_client(load, ClientLateness{1.5, 1000}).client_bound);
}

// Issue 28's loaded VM: at 640 streams the loop used 31-37% of a core and was runnable the
// rest of the run, waiting for a CPU the host gave others. That is the host's delay: counting
// the wait as the client's work set client_saturated with an idle client.
TEST(ClientVerdict, ALoopThatMostlyWaitedForACpuIsHostLateNotClientBound) {
  ClientLoad load = idle_loop();
  load.busiest_thread_utilization = 0.35;
  load.busiest_thread_demand = 0.95;
  load.run_queue_wait_s = 0.0;  // its sum below what the lateness needs: the demand says it
  const ClientLateness late{2.5, 1000};
  EXPECT_FALSE(judge_client(load, late).client_bound);
  EXPECT_TRUE(judge_client(load, late).host_late);
  EXPECT_FALSE(judge_client(load, ClientLateness{0.5, 1000}).host_late);  // and on time: neither
  load.busiest_thread_demand = 0.80;
  EXPECT_FALSE(judge_client(load, late).host_late);
}

// A client and its embedded firehose server pinned to one CPU: the loop ran half the time and
// waited the rest, but for bench's own process, which filled its CPU: the client's doing.
TEST(ClientVerdict, WaitingWhileBenchsOwnProcessFilledItsCpusIsClientBound) {
  ClientLoad load = idle_loop();
  load.busiest_thread_utilization = 0.45;
  load.busiest_thread_demand = 0.95;
  load.process_cpu_share = 0.97;
  const ClientLateness late{2.5, 1000};
  EXPECT_TRUE(judge_client(load, late).client_bound);
  EXPECT_FALSE(judge_client(load, late).host_late);
  EXPECT_FALSE(judge_client(load, ClientLateness{0.5, 1000}).client_bound);  // on time: not
  load.process_cpu_share = 0.40;  // others filled the CPUs: the host's
  EXPECT_FALSE(judge_client(load, late).client_bound);
  EXPECT_TRUE(judge_client(load, late).host_late);
}

TEST(ClientVerdict, TheHostRanItLateWhenOverOnePercentOfItsSleepsEndedLate) {
  ClientLoad load = idle_loop();
  load.timer_wakes = 2000;
  load.late_timer_wakes = 20;  // exactly 1%
  EXPECT_FALSE(judge_client(load, ClientLateness{}).host_late);
  load.late_timer_wakes = 21;
  EXPECT_TRUE(judge_client(load, ClientLateness{}).host_late);
  load.timer_wakes = 100;
  load.late_timer_wakes = 4;  // 4%, but too few not to be chance
  EXPECT_FALSE(judge_client(load, ClientLateness{}).host_late);
}

// 1,000 requests at p99 lag over 1 ms: ten late by over 1 ms each, so 10 ms of waiting for a
// CPU accounts for them; 9 ms does not, and then waves may have.
TEST(ClientVerdict, TheHostRanItLateWhenItsWaitForACpuAccountsForTheLateness) {
  ClientLoad load = idle_loop();
  const ClientLateness late{3.0, 1000};
  load.run_queue_wait_s = 0.009;
  EXPECT_FALSE(judge_client(load, late).host_late);
  load.run_queue_wait_s = 0.010;
  EXPECT_TRUE(judge_client(load, late).host_late);
  EXPECT_FALSE(judge_client(load, late).client_bound);
  // Slow turns count the same way: 100 of 4,000 over 1 ms need 100 ms of waiting.
  const ClientLateness on_time{0.5, 1000};
  load.slow_loop_turns = 100;
  load.run_queue_wait_s = 0.099;
  EXPECT_FALSE(judge_client(load, on_time).host_late);
  load.run_queue_wait_s = 0.100;
  EXPECT_TRUE(judge_client(load, on_time).host_late);
}

TEST(ClientVerdict, WaitingForACpuWithNoLatenessIsNotHostLate) {
  ClientLoad load = idle_loop();
  load.run_queue_wait_s = 5.0;
  EXPECT_FALSE(judge_client(load, ClientLateness{0.9, 1000}).host_late);
}

TEST(ClientVerdict, LatenessWithNeitherCauseShownSetsNeitherVerdict) {
  ClientLoad load = idle_loop();  // its wait for a CPU unknown: a wave, or a host unseen
  const bench::app::ClientVerdict verdict = judge_client(load, ClientLateness{4.0, 1000});
  EXPECT_FALSE(verdict.client_bound);
  EXPECT_FALSE(verdict.host_late);
}

TEST(ClientVerdict, ABusyLoopOnALateHostIsBoth) {
  ClientLoad load = idle_loop();
  load.busiest_thread_utilization = 0.95;
  load.busiest_thread_demand = 0.99;
  load.timer_wakes = 200;
  load.late_timer_wakes = 30;
  const bench::app::ClientVerdict verdict = judge_client(load, ClientLateness{5.0, 1000});
  EXPECT_TRUE(verdict.client_bound);
  EXPECT_TRUE(verdict.host_late);
}

}  // namespace
