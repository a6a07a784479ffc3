#pragma once
// The whole open-loop schedule of one point of a run: the warm-up offsets, then the measured
// ones right after them, as one list the request driver walks. Two draws (warm-up, measured)
// with independent seeds: a Poisson process is memoryless, so the join is invisible.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/schedule/arrival.hpp"

namespace bench::schedule {

/// What bounds each phase: a time when its duration is > 0, else a request count.
struct OpenLoopPlan {
  ArrivalOptions measured;                // the measured phase's arrivals (seed: --seed)
  double warmup_duration_s = 0;           // --warmup-duration; 0 = warm up by count
  std::size_t warmup_requests = 0;        // --warmup-requests
  double measured_duration_s = 0;         // --duration; 0 = bounded by measured_requests
  std::size_t measured_requests = 0;      // --num-prompts
};

struct OpenLoopSchedule {
  std::vector<std::int64_t> offsets_ns;  // warm-up first, then measured; from the point's start
  std::size_t warmup_requests = 0;       // the first this many offsets are warm-up
};

/// nullopt when the plan is a closed loop (sends_all_at_once: no ramp, an unlimited rate).
/// Warm-up holds the ramp's first rate (its last when it starts from 0), without ramping; the
/// first measured request comes at the end of a timed warm-up, or one mean gap after the last
/// warm-up request. Throws std::invalid_argument as arrival_offsets_ns does.
std::optional<OpenLoopSchedule> build_open_loop_schedule(const OpenLoopPlan& plan);

}  // namespace bench::schedule
