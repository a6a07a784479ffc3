#pragma once
// The two questions about a load that every stage asks, each answered here once (as h2load's
// Config::is_rate_mode() and is_timing_based_mode() answer them for h2load): the option checks,
// the planner, a point's plan, the client's loops, the arrival schedule and the request driver
// read these rather than look at a rate, a ramp, a trace or a duration themselves.
#include <cmath>

#include "bench/schedule/arrival.hpp"

namespace bench::schedule {

/// An open loop: requests come on a schedule of arrivals, each due at its offset whether or not
/// the server has answered those before it: a finite --request-rate, a --ramp-up-strategy, or a
/// replayed trace's own offsets (`replays_offsets`). Otherwise a closed loop: a request is sent
/// as soon as a slot frees. An open loop's --concurrency is a cap (none unless given), its
/// requests' intended starts are their arrivals, and a failed connection costs no backoff.
inline bool is_open_loop(double rate_per_s, RampStrategy ramp, bool replays_offsets) {
  return replays_offsets || ramp != RampStrategy::none || std::isfinite(rate_per_s);
}

/// A timed run: --duration (seconds; 0 = none) bounds the measured phase, alone or, with
/// --num-prompts, whichever comes first. A warm-up by time asks the same of --warmup-duration.
inline bool is_timed(double duration_s) { return duration_s > 0; }

}  // namespace bench::schedule
