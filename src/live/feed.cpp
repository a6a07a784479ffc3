#include "bench/live/feed.hpp"

#include <utility>

#include "bench/util/clock.hpp"

namespace bench::live {

void Feed::request_ended(const metrics::RequestRecord& record) {
  Sample sample = sample_of(record, now_ns());  // built before the lock: the lock only appends
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
