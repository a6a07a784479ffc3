#pragma once
// A closed loop that could never hold its load: --concurrency above the measured requests it
// sends (`--concurrency 256 --num-prompts 100`). Its Max concurrency is a setting the run never
// reached, and its steady-state window (>= 90% of the target in flight) cannot exist; without a
// word, both read as a measurement at 256. The results' warnings and the text report say so.
#include <optional>
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// "--concurrency 256 was never reached: ..." when a closed loop sent fewer measured requests
/// than its concurrency (a shard's: its share, the steady state's target); nullopt otherwise (an
/// open loop, a trace, multi-turn sessions, or a load that was reachable).
std::optional<std::string> load_not_reached_warning(const metrics::RunSummary& summary,
                                                    const RunContext& context);

}  // namespace bench::results
