// What both drivers share: the slots, tracing, the spread, the measured phase's end and the
// cancel time; and the choice of driver for a plan.
#include "bench/app/point/point_driver.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "bench/app/point/request_driver.hpp"
#include "bench/app/point/session_driver.hpp"
#include "driver_slot.hpp"

namespace bench::app {

engine::TransferEnd not_built(std::string why) {
  std::replace(why.begin(), why.end(), '\n', ' ');
  engine::TransferEnd end;
  end.error = metrics::ErrorClass::not_built;
  end.message = "could not build the request: " + why;
  return end;
}

PointDriver::PointDriver(DriverPlan plan, RecordSink& sink) : plan_(std::move(plan)), sink_(sink) {}

PointDriver::~PointDriver() = default;

std::int64_t PointDriver::measured_end_ns() const {
  if (plan_.timing.measured_duration_ns <= 0 || measured_start_ns_ < 0) return kNoLimitNs;
  return measured_start_ns_ + plan_.timing.measured_duration_ns;
}

// The end of --duration with --duration-hard, or when the server has been unreachable too long.
std::int64_t PointDriver::cancel_at_ns() const {
  std::int64_t cancel_at = kNoLimitNs;
  if (plan_.timing.cancel_at_duration_end) cancel_at = measured_end_ns();
  if (plan_.watchers.unreachable != nullptr) {
    cancel_at = std::min(cancel_at, plan_.watchers.unreachable->give_up_at_ns(
                                        plan_.timing.clock_ns() - plan_.timing.epoch_ns));
  }
  return cancel_at == kNoLimitNs ? kNoLimitNs : plan_.timing.epoch_ns + cancel_at;
}

bool PointDriver::stopped() const {
  const DriverPlan::Watchers& watchers = plan_.watchers;
  return (watchers.early_stop != nullptr && watchers.early_stop->stopping()) ||
         (watchers.unreachable != nullptr && watchers.unreachable->given_up());
}

std::size_t PointDriver::server_of(const metrics::RequestRecord& record) const {
  return plan_.target.spread != nullptr
             ? plan_.target.spread->server_of_request(record.index, record.session)
             : 0;
}

PointDriver::Slot& PointDriver::acquire_slot() {
  if (!idle_slots_.empty()) {
    Slot* slot = idle_slots_.back();
    idle_slots_.pop_back();
    return *slot;
  }
  slots_.push_back(std::make_unique<Slot>(*this));
  return *slots_.back();
}

void PointDriver::release(Slot* slot) { idle_slots_.push_back(slot); }

void PointDriver::count_started() {
  if (plan_.watchers.live != nullptr) {
    plan_.watchers.live->started.fetch_add(1, std::memory_order_relaxed);
  }
  if (plan_.watchers.feed != nullptr) plan_.watchers.feed->request_started();
}

void PointDriver::trace(metrics::RequestRecord& record, engine::TransferRequest& request) {
  if (!plan_.target.traceparent || request.unsent) return;  // nothing is sent: no span
  const util::TraceContext context = trace_ids_.next();
  record.trace_id = context.trace_id();
  record.span_id = context.span_id();
  request.own_header = context.header_line();
}

std::unique_ptr<PointDriver> make_point_driver(DriverPlan plan, RecordSink& sink) {
  if (plan.sessions) return std::make_unique<SessionDriver>(std::move(plan), sink);
  return std::make_unique<RequestDriver>(std::move(plan), sink);
}

}  // namespace bench::app
