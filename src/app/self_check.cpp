#include "bench/app/self_check.hpp"

#include <string>

#include <fmt/format.h>

#include "bench/util/clock.hpp"

namespace bench::app {

namespace {

// How much the host, not the client's work, delayed the loop. Decisive: more of its sleeps
// ended over 1 ms late than the 1% of requests a p99 leaves out, and enough of them not to be
// chance. Some: a few did, and a late sleep can hold back several requests that fell due in it,
// so the host may share the blame with a wave.
enum class HostDelay { none, some, decisive };

HostDelay host_delay(const metrics::ClientLoad& load) {
  if (load.late_timer_wakes == 0) return HostDelay::none;
  const bool decisive =
      load.late_timer_wakes >= kMinLateTimerWakesToBlameHost &&
      static_cast<double>(load.late_timer_wakes) >
          kMaxLateTimerWakeFraction * static_cast<double>(load.timer_wakes);
  return decisive ? HostDelay::decisive : HostDelay::some;
}

std::string late_sleeps(const metrics::ClientLoad& load) {
  return fmt::format("{} of {} sleeps of the event loop ended over 1 ms after their time "
                     "(latest {:.1f} ms)",
                     load.late_timer_wakes, load.timer_wakes,
                     ns_to_ms(load.latest_timer_wake_ns));
}

// Why requests went out late: a loop busy most of the time could not keep up (saturation); a
// loop mostly idle was late because its host did not run it when its timer said (a busy or
// virtual machine), or while many requests fell due together (a wave: a closed loop's
// equal-length requests ending at once, a burst of arrivals), which more client threads spread
// but a faster host would not cure.
std::string lag_cause(const metrics::ClientLoad& load) {
  const double busiest_percent = load.busiest_thread_utilization * 100;
  if (load.busiest_thread_utilization > kMaxLoopUtilization) {
    return fmt::format("because the client was saturated (an event loop used {:.0f}% of a core)",
                       busiest_percent);
  }
  const double longest_turn_ms = ns_to_ms(load.longest_loop_turn_ns);
  switch (host_delay(load)) {
    case HostDelay::decisive:
      return fmt::format(
          "because its host ran it late: {} while the busiest loop used {:.0f}% of a core (a "
          "busy or virtual machine; more client threads would not cure it)",
          late_sleeps(load), busiest_percent);
    case HostDelay::some:
      return fmt::format(
          "in waves or because its host ran it late: many requests fell due at once, or the "
          "host did not run the loop on time ({}), while the busiest event loop used {:.0f}% "
          "of a core (longest loop turn {:.1f} ms)",
          late_sleeps(load), busiest_percent, longest_turn_ms);
    case HostDelay::none:
      break;
  }
  return fmt::format(
      "in waves: many requests fell due at once while the busiest event loop used {:.0f}% of "
      "a core (longest loop turn {:.1f} ms)",
      busiest_percent, longest_turn_ms);
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
          slow_fraction * 100, ns_to_ms(load.longest_loop_turn_ns)));
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
