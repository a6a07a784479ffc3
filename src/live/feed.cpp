#include "bench/live/feed.hpp"

#include <utility>

#include "bench/util/clock.hpp"

namespace bench::live {

void Feed::request_ended(const metrics::RequestRecord& record, std::int64_t epoch_ns) {
  const std::int64_t ended_ns = now_ns();
  if (spans_ != nullptr && !record.trace_id.empty()) {
    // The epoch on the wall clock: the steady clock's distance back from now, off the wall's now.
    spans_->add(span_of(record, wall_clock_ns() - (ended_ns - epoch_ns)));
  }
  Sample sample = sample_of(record, ended_ns);  // built before the lock: the lock only appends
  {
    const std::lock_guard lock(mutex_);
    pending_.push_back(std::move(sample));
  }
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
}

std::vector<Sample> Feed::take() {
  std::vector<Sample> taken;
  const std::lock_guard lock(mutex_);
  taken.swap(pending_);
  return taken;
}

}  // namespace bench::live
