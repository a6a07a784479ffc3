#include "bench/app/point/client_verdict.hpp"

#include <algorithm>
#include <cmath>

namespace bench::app {

namespace {

// Each late request or slow turn the figures show is at least 1 ms late.
constexpr double kLateEventS = 0.001;

double slow_turn_fraction(const metrics::ClientLoad& load) {
  if (load.loop_turns <= 0) return 0;
  return static_cast<double>(load.slow_loop_turns) / static_cast<double>(load.loop_turns);
}

// The loops waited for a CPU at least as long as the lateness seen needs: the 1% of requests
// past the p99 each over 1 ms late, each slow turn over 1 ms long. Then the host can account
// for all of it, and nothing points at the client's work.
bool run_queue_wait_explains(const metrics::ClientLoad& load, const ClientLateness& lateness) {
  if (!load.run_queue_wait_s) return false;
  double late_events = 0;
  if (lateness.p99_client_lag_ms > kMaxClientLagP99Ms) {
    late_events += std::max(1.0, std::ceil(0.01 * static_cast<double>(lateness.requests)));
  }
  if (slow_turn_fraction(load) > kMaxSlowTurnFraction) {
    late_events += static_cast<double>(load.slow_loop_turns);
  }
  return late_events > 0 && *load.run_queue_wait_s >= late_events * kLateEventS;
}

}  // namespace

double busiest_loop_demand(const metrics::ClientLoad& load) {
  return std::max(load.busiest_thread_demand, load.busiest_thread_utilization);
}

bool host_ran_sleeps_late(const metrics::ClientLoad& load) {
  return load.late_timer_wakes >= kMinLateTimerWakesToBlameHost &&
         static_cast<double>(load.late_timer_wakes) >
             kMaxLateTimerWakeFraction * static_cast<double>(load.timer_wakes);
}

bool late_at_millisecond_resolution(const metrics::ClientLoad& load,
                                    const ClientLateness& lateness) {
  return lateness.p99_client_lag_ms > kMaxClientLagP99Ms ||
         slow_turn_fraction(load) > kMaxSlowTurnFraction;
}

ClientVerdict judge_client(const metrics::ClientLoad& load, const ClientLateness& lateness) {
  ClientVerdict verdict;
  const double cpu = load.busiest_thread_utilization;
  const bool late = late_at_millisecond_resolution(load, lateness);
  const bool runnable_most_of_the_run = busiest_loop_demand(load) > kMaxLoopDemand;
  const bool waited_for_own_process =
      load.process_cpu_share && *load.process_cpu_share > kMaxProcessCpuShare;
  verdict.client_bound = cpu > kMaxLoopCpu || (cpu > kMaxLoopCpuWhenLate && late) ||
                         (late && runnable_most_of_the_run && waited_for_own_process);
  const bool waited_for_cpu = runnable_most_of_the_run || run_queue_wait_explains(load, lateness);
  verdict.host_late =
      host_ran_sleeps_late(load) || (!verdict.client_bound && late && waited_for_cpu);
  return verdict;
}

}  // namespace bench::app
