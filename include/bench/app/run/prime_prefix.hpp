#pragma once
// --prefix-share: before a point is measured, its shared system prompt is sent once to every
// server (one unmeasured request, max_tokens 1, with a question of its own), so the point's
// first requests find it cached instead of racing each other to fill the cache: SGLang's
// controlled cache-hit benchmark primes its prefixes for the same reason
// (sgl-project/sglang#37359). A --flush-cache flush comes before it.
#include <atomic>
#include <optional>
#include <string>

#include "bench/app/plan/run_plan.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

/// Primes `point`'s system prompt on every server when the point asks a prefix share above 0.
/// Returns why it could not (one line, the server's text redacted): the point is measured all
/// the same, and its cached share shows what the cache did. nullopt when primed or not needed.
std::optional<std::string> prime_prefix(const RunPlan& plan, const PreparedRun& prepared,
                                        const LoadPoint& point, const StopFlag& stop);

}  // namespace bench::app
