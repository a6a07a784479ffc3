#pragma once
// Every run checks its own instrument: a client that is short of CPU, or whose event loop is
// busy for long stretches, stamps chunks late and sends requests late, and that would be
// reported as server latency. The check turns what the client measured of itself into
// warnings, so a saturated client never passes silently.
#include <cstdint>

#include "bench/app/run_point.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/report/report.hpp"

namespace bench::app {

// Thresholds. Above them latency figures may carry client delay of the order of a millisecond,
// the resolution the report gives them at.
inline constexpr double kMaxLoopUtilization = 0.80;   // CPU / wall of one event loop
inline constexpr double kMaxClientLagP99Ms = 1.0;     // requests sent late by the client itself
inline constexpr double kMaxSlowTurnFraction = 0.01;  // loop turns longer than 1 ms
// Sleeps of the event loop that its host ended over 1 ms late (the loop woke late for reasons
// of the machine's: another process, a hypervisor that did not run the vCPU).
inline constexpr double kMaxLateTimerWakeFraction = 0.01;
inline constexpr std::int64_t kMinLateTimerWakesToBlameHost = 5;  // fewer may be chance
// Request bodies the event loop built itself (the prompt producer was behind). The opening
// burst may catch the producer just started, so a few are no sign of saturation.
inline constexpr double kMaxBodiesBuiltOnLoopFraction = 0.01;

report::ClientCheck check_client(const metrics::RunSummary& summary,
                                 const metrics::ClientLoad& load);

}  // namespace bench::app
