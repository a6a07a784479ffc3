#include "bench/app/self_check.hpp"

#include <string>

#include <fmt/format.h>

namespace bench::app {

namespace {

// Whether the host, not the client's work, delayed the loop often enough to move a p99: more
// of its timer wakes came over 1 ms late than the 1% of requests a p99 leaves out.
bool host_ran_loop_late(const metrics::ClientLoad& load) {
  const auto wakes = static_cast<double>(load.timer_wakes);
  return load.timer_wakes > 0 &&
         static_cast<double>(load.late_timer_wakes) > kMaxLateTimerWakeFraction * wakes;
}

// Why requests went out late: a loop busy most of the time could not keep up (saturation); a
// loop mostly idle was late because its host did not run it when its timer said (a busy or
// virtual machine), or else only while many requests fell due together (a wave: a closed
// loop's equal-length requests ending at once, a burst of arrivals), which more client threads
// spread but a faster host would not cure.
std::string lag_cause(const metrics::ClientLoad& load) {
  if (load.busiest_thread_utilization > kMaxLoopUtilization) {
    return fmt::format("because the client was saturated (an event loop used {:.0f}% of a core)",
                       load.busiest_thread_utilization * 100);
  }
  if (host_ran_loop_late(load)) {
    return fmt::format(
        "because its host ran it late: {} of {} sleeps of the event loop ended over 1 ms "
        "after their time (latest {:.1f} ms) while the busiest loop used {:.0f}% of a core (a "
        "busy or virtual machine; more client threads would not cure it)",
        load.late_timer_wakes, load.timer_wakes,
        static_cast<double>(load.latest_timer_wake_ns) / 1e6,
        load.busiest_thread_utilization * 100);
  }
  return fmt::format(
      "in waves: many requests fell due at once while the busiest event loop used {:.0f}% of "
      "a core (longest loop turn {:.1f} ms)",
      load.busiest_thread_utilization * 100, static_cast<double>(load.longest_loop_turn_ns) / 1e6);
}

}  // namespace

report::ClientCheck check_client(const metrics::RunSummary& summary,
                                 const metrics::ClientLoad& load) {
  report::ClientCheck check;
  check.load = load;
  if (load.busiest_thread_utilization > kMaxLoopUtilization) {
    check.warnings.push_back(fmt::format(
        "an event loop used {:.0f}% of a core: the client may have stamped chunks late; rerun "
        "with --client-threads {} (or on a faster host)",
        load.busiest_thread_utilization * 100, load.threads * 2));
  }
  if (summary.client_lag_ms.count > 0 && summary.client_lag_ms.p99 > kMaxClientLagP99Ms) {
    check.warnings.push_back(fmt::format(
        "p99 client lag {:.2f} ms (max {:.2f} ms): the client sent requests late, {}; TTFT "
        "and E2E from the intended start include it",
        summary.client_lag_ms.p99, summary.client_lag_ms.max, lag_cause(load)));
  }
  if (load.loop_turns > 0) {
    const double slow_fraction =
        static_cast<double>(load.slow_loop_turns) / static_cast<double>(load.loop_turns);
    if (slow_fraction > kMaxSlowTurnFraction) {
      check.warnings.push_back(fmt::format(
          "{:.1f}% of event-loop turns took over 1 ms (longest {:.1f} ms): chunk arrival times "
          "may be late by that much",
          slow_fraction * 100, static_cast<double>(load.longest_loop_turn_ns) / 1e6));
    }
  }
  const auto requests = static_cast<double>(summary.sent + summary.warmup_requests);
  if (static_cast<double>(load.bodies_built_on_loop) > kMaxBodiesBuiltOnLoopFraction * requests) {
    check.warnings.push_back(fmt::format(
        "{} request bodies were built on the event loop because the prompt producer fell behind: "
        "sends may have been late by the time it takes to build one",
        load.bodies_built_on_loop));
  }
  check.saturated = !check.warnings.empty();
  return check;
}

}  // namespace bench::app
