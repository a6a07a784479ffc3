#pragma once
// The self-check's two verdicts, kept apart because they have different cures.
//
// Client-bound (results "client_saturated"): bench's own work kept an event loop from idling,
// so it read and sent late by its own doing; more --client-threads (or a faster client) cures
// it. The evidence is the loop's demand: the share of the run it was running or waiting to run
// (CPU time plus run-queue wait), which a busy host cannot raise much for a loop with little
// to do. Over 80% the loop had no slack; over half, with lateness in the figures, its work
// queued behind itself (a loop sharing its core with others reaches no more).
//
// Host late ("host_late"): the machine did not run the loop when it was due (other processes,
// a hypervisor that did not run the vCPU); no client setting cures it. The evidence is the
// loop's sleeps that ended over 1 ms late, or lateness the loop's run-queue wait accounts for.
//
// Lateness alone (client lag, slow loop turns) proves neither: a loop on a busy host is late
// with nothing to do. So a loop that idled never makes the client bound, however late it ran,
// and a CI check on client_saturated does not flap on a busy machine. Pure functions of what
// the run measured, for the self-check (app/self_check) and for choosing client threads.
#include <cstdint>

#include "bench/metrics/client_load.hpp"

namespace bench::app {

// An event loop with work (running, or runnable and waiting for a CPU) over this share of the
// run had no slack: its own work set its pace.
inline constexpr double kMaxLoopDemand = 0.80;
// A loop with work over half the run, and late at the report's resolution: its work queued.
inline constexpr double kMaxLoopDemandWhenLate = 0.50;
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
