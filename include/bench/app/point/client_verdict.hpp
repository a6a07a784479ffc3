#pragma once
// The self-check's two verdicts, kept apart because they have different cures.
//
// Client-bound (results "client_saturated"): bench's own work kept an event loop from idling,
// so it read and sent late by its own doing; more --client-threads (or a faster client) cures
// it. The evidence is the CPU time the busiest loop used, over the run's wall time: the work it
// had to do, which a busy host cannot raise. Over 80% of a core the loop had no slack; over half,
// with lateness in the figures, its work queued behind itself. A loop that waited for a CPU
// most of the run is client-bound only when bench's own process filled the CPUs it may use (a
// client and its embedded server pinned to one CPU).
//
// Host late ("host_late"): the machine did not run the loop when it was due (other processes,
// a hypervisor that did not run the vCPU); no client setting cures it. The evidence is the
// loop's sleeps that ended over 1 ms late, or lateness the loop's run-queue wait accounts for,
// or a loop that was runnable most of the run (CPU plus its wait for one) while using less than
// the client-bound share itself: it had little work and waited for a CPU to do it. A loop at 35%
// of a core that waited another 50% is the host's delay, not the client's; once counted as the
// client's, it set client_saturated on a loaded machine with an idle client.
//
// Lateness alone (client lag, slow loop turns) proves neither: a loop on a busy host is late
// with nothing to do. So a loop that idled never makes the client bound, however late it ran,
// and a CI check on client_saturated does not flap on a busy machine. Pure functions of what
// the run measured, for the self-check (app/self_check) and for choosing client threads.
#include <cstdint>

#include "bench/metrics/client_load.hpp"

namespace bench::app {

// An event loop that used over this share of a core had no slack: its own work set its pace.
inline constexpr double kMaxLoopCpu = 0.80;
// A loop that used over half a core, and late at the report's resolution: its work queued.
inline constexpr double kMaxLoopCpuWhenLate = 0.50;
// A loop runnable (running or waiting for a CPU) over this share of the run, and late, while
// using less than kMaxLoopCpu itself: it waited for a CPU. For bench's own work (client-bound)
// when bench's process used over kMaxProcessCpuShare of the CPUs it may run on (its loops and
// its embedded server took turns on too few CPUs); else its host kept it waiting (host late).
inline constexpr double kMaxLoopDemand = 0.80;
inline constexpr double kMaxProcessCpuShare = 0.80;
// Lateness the report's millisecond resolution shows: requests sent late at p99, or loop turns
// (time in which no socket is read) over 1 ms.
inline constexpr double kMaxClientLagP99Ms = 1.0;
inline constexpr double kMaxSlowTurnFraction = 0.01;
// The host ran the loop late: more of its sleeps ended over 1 ms late than the 1% of requests a
// p99 leaves out, and enough of them not to be chance.
inline constexpr double kMaxLateTimerWakeFraction = 0.01;
inline constexpr std::int64_t kMinLateTimerWakesToBlameHost = 5;

/// What the run's figures show of lateness.
struct ClientLateness {
  double p99_client_lag_ms = 0;  // 0 when no request measured it
  std::int64_t requests = 0;     // requests sent (warm-up included)
};

struct ClientVerdict {
  bool client_bound = false;  // its own work made it late ("client_saturated")
  bool host_late = false;     // its host ran it late ("host_late")
};

/// The share of the run the busiest event loop had work: (CPU + run-queue wait) / wall, or its
/// CPU share where the run-queue wait is unknown.
double busiest_loop_demand(const metrics::ClientLoad& load);

/// More than 1% (and at least five) of the loops' sleeps ended over 1 ms late.
bool host_ran_sleeps_late(const metrics::ClientLoad& load);

/// Requests sent over 1 ms late at p99, or over 1% of loop turns longer than 1 ms.
bool late_at_millisecond_resolution(const metrics::ClientLoad& load,
                                    const ClientLateness& lateness);

ClientVerdict judge_client(const metrics::ClientLoad& load, const ClientLateness& lateness);

}  // namespace bench::app
