#include "bench/schedule/open_loop.hpp"

namespace bench::schedule {

namespace {

std::int64_t seconds_to_ns(double seconds) { return static_cast<std::int64_t>(seconds * 1e9); }

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

std::optional<OpenLoopSchedule> build_open_loop_schedule(const OpenLoopPlan& plan) {
  if (sends_all_at_once(plan.measured)) return std::nullopt;
  const ArrivalOptions warmup = warmup_arrivals(plan.measured);
  OpenLoopSchedule out;
  std::int64_t shift_ns = 0;
  if (plan.warmup_duration_s > 0) {
    shift_ns = seconds_to_ns(plan.warmup_duration_s);
    out.offsets_ns = arrival_offsets_until_ns(warmup, shift_ns, SIZE_MAX);
  } else if (plan.warmup_requests > 0) {
    out.offsets_ns = arrival_offsets_ns(warmup, plan.warmup_requests);
    shift_ns = out.offsets_ns.back() + static_cast<std::int64_t>(1e9 / warmup.rate_per_s);
  }
  out.warmup_requests = out.offsets_ns.size();
  const std::vector<std::int64_t> measured =
      plan.measured_duration_s > 0
          ? arrival_offsets_until_ns(plan.measured, seconds_to_ns(plan.measured_duration_s),
                                     SIZE_MAX)
          : arrival_offsets_ns(plan.measured, plan.measured_requests);
  for (std::int64_t offset : measured) out.offsets_ns.push_back(shift_ns + offset);
  return out;
}

}  // namespace bench::schedule
