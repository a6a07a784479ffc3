#pragma once
// The names of RunAccumulator's latency distributions, in its one order: the accumulator's
// distributions() list, a shard's saved state and its reader go through it (apart from
// accumulator_state.hpp, which needs RunSummary, so run_summary.hpp can size its list by it).
#include <array>
#include <string_view>

namespace bench::metrics {

/// RunAccumulator's distributions, in the order of AccumulatorState::distributions.
inline constexpr std::array<std::string_view, 13> kAccumulatorDistributions = {
    "ttft_ms",
    "itl_ms",
    "icl_ms",
    "tpot_ms",
    "e2e_ms",
    "schedule_lag_ms",
    "client_lag_ms",
    "ttft_from_intended_ms",
    "e2e_from_intended_ms",
    "connect_ms",
    "ttfa_ms",
    "ttfb_ms",
    "ttst_ms"};

}  // namespace bench::metrics
