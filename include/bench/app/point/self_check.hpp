#pragma once
// Every run checks its own instrument: a client that is short of CPU, or whose event loop is
// busy for long stretches, stamps chunks late and sends requests late, and that would be
// reported as server latency. The check turns what the client measured of itself into
// warnings and two verdicts (app/point/client_verdict.hpp): the client's own work made it late, or
// its host ran it late. So a saturated client never passes silently, and a busy host is not
// taken for one.
#include "bench/app/point/client_verdict.hpp"
#include "bench/metrics/client_load.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::app {

// Request bodies the event loop built itself (the prompt producer was behind). The opening
// burst may catch the producer just started, so a few are no sign of trouble.
inline constexpr double kMaxBodiesBuiltOnLoopFraction = 0.01;

results::ClientCheck check_client(const metrics::RunSummary& summary,
                                  const metrics::ClientLoad& load);

}  // namespace bench::app
