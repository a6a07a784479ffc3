#include "bench/app/point/self_check.hpp"

#include <string>

#include <gtest/gtest.h>

namespace {

using bench::app::check_client;
using bench::metrics::ClientLoad;

bool says_bodies_built_on_loop(const bench::results::ClientCheck& check) {
  for (const std::string& warning : check.warnings) {
    if (warning.find("built on the event loop") != std::string::npos) return true;
  }
  return false;
}

std::string lag_warning(const bench::results::ClientCheck& check) {
  for (const std::string& warning : check.warnings) {
    if (warning.find("client lag") != std::string::npos) return warning;
  }
  return "";
}

bench::metrics::RunSummary lagging_by_ms(double p99_ms) {
  bench::metrics::RunSummary summary;
  summary.sent = 1000;
  summary.client_lag_ms.count = 1000;
  summary.client_lag_ms.p99 = p99_ms;
  summary.client_lag_ms.max = p99_ms * 2;
  return summary;
}

TEST(SelfCheck, ClientLagSaysItCameFromAWaveWhenTheLoopWasMostlyIdle) {
  ClientLoad load;
  load.busiest_thread_utilization = 0.25;
  load.longest_loop_turn_ns = 12'300'000;
  load.timer_wakes = 54;  // every sleep ended on time: nothing points at the host
  EXPECT_EQ(lag_warning(check_client(lagging_by_ms(0.9), load)), "");
  const std::string warning = lag_warning(check_client(lagging_by_ms(3.0), load));
  EXPECT_NE(warning.find("in waves"), std::string::npos) << warning;
  EXPECT_NE(warning.find("25% of a core"), std::string::npos) << warning;
  EXPECT_NE(warning.find("longest loop turn 12.3 ms"), std::string::npos) << warning;
  EXPECT_EQ(warning.find("saturated"), std::string::npos) << warning;
  EXPECT_EQ(warning.find("host"), std::string::npos) << warning;
}

TEST(SelfCheck, ClientLagSaysTheClientWasSaturatedWhenItsLoopWasBusy) {
  ClientLoad load;
  load.busiest_thread_utilization = 0.95;
  const std::string warning = lag_warning(check_client(lagging_by_ms(3.0), load));
  EXPECT_NE(warning.find("client was saturated"), std::string::npos) << warning;
  EXPECT_EQ(warning.find("in waves"), std::string::npos) << warning;
}

// Sleeps the host ended over 1 ms late, past the 1% a p99 leaves out: the lag is the host's.
TEST(SelfCheck, ClientLagSaysTheHostRanTheClientLateWhenItsSleepsEndedLate) {
  ClientLoad load;
  load.busiest_thread_utilization = 0.04;
  load.timer_wakes = 2000;
  load.late_timer_wakes = 20;  // exactly 1%: not more than a p99 leaves out
  load.latest_timer_wake_ns = 8'700'000;
  const std::string shared = lag_warning(check_client(lagging_by_ms(3.0), load));
  EXPECT_NE(shared.find("in waves or because its host ran it late (20 of 2000 sleeps over 1 ms "
                        "late, latest 8.7 ms; busiest loop 4% of a core)"),
            std::string::npos)
      << shared;
  load.timer_wakes = 100;
  load.late_timer_wakes = 4;  // 4%, but too few not to be chance
  EXPECT_NE(lag_warning(check_client(lagging_by_ms(3.0), load)).find("in waves or because"),
            std::string::npos);
  load.timer_wakes = 2000;
  load.late_timer_wakes = 31;
  const std::string warning = lag_warning(check_client(lagging_by_ms(3.0), load));
  EXPECT_NE(warning.find("because its host ran it late: 31 of 2000 sleeps over 1 ms late, "
                         "latest 8.7 ms"),
            std::string::npos)
      << warning;
  // One line of the report and of stderr (issue 45: it was 350 characters, said twice).
  EXPECT_LE(warning.size(), 160U) << warning;
  EXPECT_EQ(warning.find("in waves"), std::string::npos) << warning;
  // A busy loop is the client's own limit first, whatever its host did.
  load.busiest_thread_utilization = 0.95;
  EXPECT_NE(lag_warning(check_client(lagging_by_ms(3.0), load)).find("client was saturated"),
            std::string::npos);
}

TEST(SelfCheck, BodiesBuiltOnTheEventLoopPastOnePercentAreAWarning) {
  bench::metrics::RunSummary summary;
  summary.sent = 1000;
  ClientLoad load;
  load.threads = 1;
  load.bodies_built_on_loop = 10;  // the opening burst caught the producer starting: no sign
  EXPECT_FALSE(says_bodies_built_on_loop(check_client(summary, load)));
  load.bodies_built_on_loop = 11;
  const bench::results::ClientCheck check = check_client(summary, load);
  EXPECT_TRUE(says_bodies_built_on_loop(check));
  // The loop's own work, bodies included, is in its demand: the bodies alone do not make it
  // the bottleneck (a producer its host starved builds them too).
  EXPECT_FALSE(check.saturated);
}

// Requests that failed to connect end as soon as they are sent, faster than bodies are made
// ahead: the warning names the dead server, not the prompt producer (issue 43: a server killed
// mid-run drew "the prompt producer fell behind").
TEST(SelfCheck, BodiesBuiltOnTheLoopBecauseTheServerIsDeadBlameTheServer) {
  bench::metrics::RunSummary summary;
  summary.sent = 1000;
  summary.errors[bench::metrics::ErrorClass::connect_refused].count = 900;
  ClientLoad load;
  load.threads = 1;
  load.bodies_built_on_loop = 500;
  const bench::results::ClientCheck check = check_client(summary, load);
  ASSERT_TRUE(says_bodies_built_on_loop(check));
  for (const std::string& warning : check.warnings) {
    EXPECT_EQ(warning.find("prompt producer"), std::string::npos) << warning;
  }
  bool named = false;
  for (const std::string& warning : check.warnings) {
    named = named || warning.find("900 of 1000 requests failed to connect") != std::string::npos;
  }
  EXPECT_TRUE(named);
  summary.errors.clear();  // a live server: the producer it is
  bool producer = false;
  for (const std::string& warning : check_client(summary, load).warnings) {
    producer = producer || warning.find("prompt producer fell behind") != std::string::npos;
  }
  EXPECT_TRUE(producer);
}

// The verdicts stand apart: a lagging, mostly idle loop whose wait for a CPU accounts for the
// lag is its host's, not the client's; the same lag with the loop busy is the client's.
TEST(SelfCheck, TheCheckCarriesTheClientAndHostVerdictsApart) {
  ClientLoad load;
  load.busiest_thread_utilization = 0.04;
  load.busiest_thread_demand = 0.30;
  load.run_queue_wait_s = 0.5;
  const bench::results::ClientCheck host = check_client(lagging_by_ms(3.0), load);
  EXPECT_FALSE(host.saturated);
  EXPECT_TRUE(host.host_late);
  EXPECT_NE(lag_warning(host).find("because its host ran it late"), std::string::npos)
      << lag_warning(host);
  EXPECT_NE(lag_warning(host).find("it waited 500.0 ms for a CPU"), std::string::npos)
      << lag_warning(host);
  // Runnable 90% of the run but using 4% of a core: it waited for the host, not for its work.
  load.busiest_thread_demand = 0.90;
  const bench::results::ClientCheck waiting = check_client(lagging_by_ms(3.0), load);
  EXPECT_FALSE(waiting.saturated);
  EXPECT_TRUE(waiting.host_late);
  load.busiest_thread_utilization = 0.90;
  load.busiest_thread_demand = 0.95;
  const bench::results::ClientCheck client = check_client(lagging_by_ms(3.0), load);
  EXPECT_TRUE(client.saturated);
  EXPECT_FALSE(client.host_late);
  EXPECT_NE(lag_warning(client).find("client was saturated (an event loop used 90% of a core)"),
            std::string::npos)
      << lag_warning(client);
}

}  // namespace
