#pragma once
// The whole open-loop schedule of one point of a run: the warm-up arrivals, then the measured
// ones right after them, as one sequence of offsets the request driver walks by index. Two
// draws (warm-up, measured) with independent seeds: a Poisson process is memoryless, so the
// join is invisible. Nothing is kept per request: each reader draws the offsets as it goes,
// so a 24-hour schedule costs the same memory as a 1-second one, and every reader (one per
// client thread) sees the same offsets for the same seed.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bench/schedule/arrival.hpp"

namespace bench::schedule {

/// What bounds each phase: a time when its duration is > 0, else a request count.
struct OpenLoopPlan {
  ArrivalOptions measured;            // the measured phase's arrivals (seed: --seed)
  double warmup_duration_s = 0;       // --warmup-duration; 0 = warm up by count
  std::size_t warmup_requests = 0;    // --warmup-requests
  double measured_duration_s = 0;     // --duration; 0 = bounded by measured_requests
  std::size_t measured_requests = 0;  // --num-prompts; with a duration, a cap (SIZE_MAX: none)
  // A replayed trace's arrivals (workload/trace.hpp), warm-up requests first: replaces the
  // drawn process (`measured` is not read, nor the durations). Null: draw them.
  std::shared_ptr<const std::vector<std::int64_t>> given_offsets_ns;
};

class OpenLoopSchedule {
 public:
  /// Warm-up and measured arrivals one after the other; `measured_shift_ns` is where the
  /// measured phase's first offset (0 on its own clock) lands.
  OpenLoopSchedule(ArrivalStream warmup, ArrivalStream measured, std::int64_t measured_shift_ns);

  std::size_t size() const { return warmup_.size() + measured_.size(); }
  std::size_t warmup_requests() const { return warmup_.size(); }  // the first this many
  /// The first measured request's offset; nullopt when there is none.
  std::optional<std::int64_t> measured_start_ns() const;

  /// Offsets by request index, drawn as they are asked for; indices must not decrease (a
  /// repeated index is answered again). Each reader draws on its own.
  class Reader {
   public:
    explicit Reader(const OpenLoopSchedule& schedule);
    /// nullopt past the schedule's end.
    std::optional<std::int64_t> offset_ns(std::size_t index);

   private:
    ArrivalStream warmup_;
    ArrivalStream measured_;
    std::int64_t shift_ns_;
    std::size_t next_index_ = 0;        // the index the streams will yield next
    std::optional<std::int64_t> last_;  // the offset of next_index_ - 1
  };
  Reader reader() const { return Reader(*this); }

 private:
  ArrivalStream warmup_;
  ArrivalStream measured_;
  std::int64_t shift_ns_;
};

/// Whether `plan` is an open loop (is_open_loop: a rate, a ramp, or given offsets), for which
/// build_open_loop_schedule builds a schedule.
bool is_open_loop(const OpenLoopPlan& plan);

/// With given offsets: the first warmup_requests of them are the warm-up, the next
/// measured_requests (at most what is left) the measured phase, each at its given offset.
/// Otherwise nullopt when the plan is a closed loop (!is_open_loop: no ramp, an unlimited
/// rate). Warm-up holds the ramp's first rate (its last when it starts from 0), without ramping;
/// the first measured request comes at the end of a timed warm-up, or one mean gap after the last
/// warm-up request. Throws std::invalid_argument as arrival_offsets_ns does.
std::optional<OpenLoopSchedule> build_open_loop_schedule(const OpenLoopPlan& plan);

}  // namespace bench::schedule
