#include "bench/schedule/open_loop.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bench/schedule/load_mode.hpp"
#include "bench/util/clock.hpp"

namespace bench::schedule {

namespace {

ArrivalOptions warmup_arrivals(const ArrivalOptions& measured) {
  ArrivalOptions warmup = measured;
  warmup.seed = measured.seed ^ 0x9e3779b97f4a7c15ULL;  // a stream of its own
  if (warmup.ramp.strategy != RampStrategy::none) {
    warmup.rate_per_s = warmup.ramp.start_rps > 0 ? warmup.ramp.start_rps : warmup.ramp.end_rps;
    warmup.ramp = {};
  }
  return warmup;
}

}  // namespace

OpenLoopSchedule::OpenLoopSchedule(ArrivalStream warmup, ArrivalStream measured,
                                   std::int64_t measured_shift_ns)
    : warmup_(std::move(warmup)), measured_(std::move(measured)), shift_ns_(measured_shift_ns) {}

std::optional<std::int64_t> OpenLoopSchedule::measured_start_ns() const {
  if (measured_.size() == 0) return std::nullopt;
  return shift_ns_;  // every arrival stream starts at offset 0
}

OpenLoopSchedule::Reader::Reader(const OpenLoopSchedule& schedule)
    : warmup_(schedule.warmup_), measured_(schedule.measured_), shift_ns_(schedule.shift_ns_) {}

std::optional<std::int64_t> OpenLoopSchedule::Reader::offset_ns(std::size_t index) {
  if (index >= warmup_.size() + measured_.size()) return std::nullopt;
  if (index + 1 < next_index_) {
    throw std::logic_error("OpenLoopSchedule::Reader: indices must not decrease");
  }
  while (next_index_ <= index) {
    if (next_index_ < warmup_.size()) {
      last_ = warmup_.next();
    } else {
      last_ = shift_ns_ + *measured_.next();
    }
    ++next_index_;
  }
  return last_;
}

namespace {

// The given offsets as the warm-up, then the measured phase: each request at its own offset,
// the measured phase's clock starting at its first.
OpenLoopSchedule given_schedule(const OpenLoopPlan& plan) {
  const std::vector<std::int64_t>& offsets = *plan.given_offsets_ns;
  const std::size_t warmup = std::min(plan.warmup_requests, offsets.size());
  const std::size_t measured = std::min(plan.measured_requests, offsets.size() - warmup);
  const std::int64_t shift_ns = warmup < offsets.size() ? offsets[warmup] : 0;
  return OpenLoopSchedule(
      ArrivalStream::of_offsets(plan.given_offsets_ns, 0, warmup, 0),
      ArrivalStream::of_offsets(plan.given_offsets_ns, warmup, measured, shift_ns), shift_ns);
}

}  // namespace

bool is_open_loop(const OpenLoopPlan& plan) {
  return is_open_loop(plan.measured.rate_per_s, plan.measured.ramp.strategy,
                      plan.given_offsets_ns != nullptr);
}

std::optional<OpenLoopSchedule> build_open_loop_schedule(const OpenLoopPlan& plan) {
  if (!is_open_loop(plan)) return std::nullopt;
  if (plan.given_offsets_ns != nullptr) return given_schedule(plan);
  const ArrivalOptions warmup_options = warmup_arrivals(plan.measured);
  ArrivalStream warmup = ArrivalStream::of_count(warmup_options, 0);
  std::int64_t shift_ns = 0;
  if (is_timed(plan.warmup_duration_s)) {
    shift_ns = s_to_ns_truncated(plan.warmup_duration_s);
    warmup = ArrivalStream::until(warmup_options, shift_ns, SIZE_MAX);
  } else if (plan.warmup_requests > 0) {
    warmup = ArrivalStream::of_count(warmup_options, plan.warmup_requests);
    shift_ns = warmup.last_ns() + static_cast<std::int64_t>(kNsPerSec / warmup_options.rate_per_s);
  }
  ArrivalStream measured =
      is_timed(plan.measured_duration_s)
          ? ArrivalStream::until(plan.measured, s_to_ns_truncated(plan.measured_duration_s),
                                 plan.measured_requests)
          : ArrivalStream::of_count(plan.measured, plan.measured_requests);
  return OpenLoopSchedule(std::move(warmup), std::move(measured), shift_ns);
}

}  // namespace bench::schedule
