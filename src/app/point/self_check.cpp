#include "bench/app/point/self_check.hpp"

#include <string>

#include <fmt/format.h>

#include "bench/engine/connect_backoff.hpp"
#include "bench/util/clock.hpp"

namespace bench::app {

namespace {

// Each warning is one line of the report and of stderr: the evidence in a few words, the rest
// in the results (client.late_wakes, run_queue_wait_ms, busiest_thread_utilization).
std::string late_sleeps(const metrics::ClientLoad& load) {
  return fmt::format("{} of {} sleeps over 1 ms late, latest {:.1f} ms", load.late_timer_wakes,
                     load.timer_wakes, ns_to_ms(load.latest_timer_wake_ns));
}

// What shows the host delayed the loop: its late sleeps, and its wait for a CPU.
std::string host_evidence(const metrics::ClientLoad& load) {
  std::string evidence = load.late_timer_wakes > 0 ? late_sleeps(load) : "";
  if (load.run_queue_wait_s && *load.run_queue_wait_s > 0) {
    evidence += fmt::format("{}it waited {:.1f} ms for a CPU", evidence.empty() ? "" : "; ",
                            s_to_ms(*load.run_queue_wait_s));
  }
  return evidence.empty() ? late_sleeps(load) : evidence;
}

// Why requests went out late: a loop with work most of the time could not keep up (the client
// was the bottleneck); a loop mostly idle was late because its host did not run it when due (a
// busy or virtual machine, which more client threads would not cure), or while many requests
// fell due together (a wave: a closed loop's equal-length requests ending at once, a burst of
// arrivals), which more client threads spread but a faster host would not cure.
std::string lag_cause(const metrics::ClientLoad& load, const ClientVerdict& verdict) {
  const double busiest_percent = load.busiest_thread_utilization * 100;
  if (verdict.client_bound) {
    return fmt::format("because the client was saturated (an event loop used {:.0f}% of a core)",
                       busiest_percent);
  }
  if (verdict.host_late) return "because its host ran it late: " + host_evidence(load);
  const double longest_turn_ms = ns_to_ms(load.longest_loop_turn_ns);
  if (load.late_timer_wakes > 0) {
    return fmt::format(
        "in waves or because its host ran it late ({}; busiest loop {:.0f}% of a core)",
        late_sleeps(load), busiest_percent);
  }
  return fmt::format(
      "in waves: many requests fell due at once (busiest loop {:.0f}% of a core, longest loop "
      "turn {:.1f} ms)",
      busiest_percent, longest_turn_ms);
}

// Requests that ended without a connection to the server (engine/connect_backoff.hpp).
std::int64_t connection_failures(const metrics::RunSummary& summary) {
  std::int64_t failures = 0;
  for (const auto& [error, errors] : summary.errors) {
    if (engine::is_connection_failure(error)) failures += errors.count;
  }
  return failures;
}

// The loop built bodies itself because it used them up faster than the producer made them: a
// producer too slow for the load, or requests that ended as soon as they were sent because no
// connection could be made (a dead server), which is the cause to name then.
std::string bodies_on_loop_warning(const metrics::RunSummary& summary,
                                   const metrics::ClientLoad& load) {
  const std::int64_t unconnected = connection_failures(summary);
  if (2 * unconnected > summary.sent) {
    return fmt::format(
        "{} request bodies were built on the event loop because {} of {} requests failed to "
        "connect and ended as soon as they were sent: the server could not be reached",
        load.bodies_built_on_loop, unconnected, summary.sent);
  }
  return fmt::format(
      "{} request bodies were built on the event loop because the prompt producer fell behind: "
      "sends may have been late by the time it takes to build one",
      load.bodies_built_on_loop);
}

std::string busy_loop_warning(const metrics::ClientLoad& load) {
  const double waited_percent = (busiest_loop_demand(load) - load.busiest_thread_utilization) * 100;
  return fmt::format(
      "an event loop used {:.0f}% of a core{}: the client was the bottleneck and may have "
      "stamped chunks late; rerun with --client-threads {} (or on a faster host)",
      load.busiest_thread_utilization * 100,
      waited_percent >= 1 ? fmt::format(" and waited {:.0f}% for one", waited_percent) : "",
      load.threads * 2);
}

}  // namespace

results::ClientCheck check_client(const metrics::RunSummary& summary,
                                  const metrics::ClientLoad& load) {
  results::ClientCheck check;
  check.load = load;
  const std::int64_t requests = summary.sent + summary.warmup_requests;
  const ClientLateness lateness{summary.client_lag_ms.count > 0 ? summary.client_lag_ms.p99 : 0.0,
                                requests};
  const ClientVerdict verdict = judge_client(load, lateness);
  check.saturated = verdict.client_bound;
  check.host_late = verdict.host_late;
  if (verdict.client_bound) check.warnings.push_back(busy_loop_warning(load));
  if (lateness.p99_client_lag_ms > kMaxClientLagP99Ms) {
    check.warnings.push_back(fmt::format("p99 client lag {:.2f} ms, in TTFT and E2E: sent late {}",
                                         summary.client_lag_ms.p99, lag_cause(load, verdict)));
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
  if (static_cast<double>(load.bodies_built_on_loop) >
      kMaxBodiesBuiltOnLoopFraction * static_cast<double>(requests)) {
    check.warnings.push_back(bodies_on_loop_warning(summary, load));
  }
  return check;
}

}  // namespace bench::app
