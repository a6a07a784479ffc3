#include "bench/live/snapshot.hpp"

#include <algorithm>
#include <utility>

namespace bench::live {

Buckets::Buckets(std::vector<double> bounds)
    : upper_bounds(std::move(bounds)), counts(upper_bounds.size() + 1, 0) {}

void Buckets::add(double value, std::uint64_t times) {
  // The first bound at or above the value: Prometheus's `le` is inclusive.
  const auto at = std::lower_bound(upper_bounds.begin(), upper_bounds.end(), value);
  counts[static_cast<std::size_t>(at - upper_bounds.begin())] += times;
  sum += value * static_cast<double>(times);
  count += times;
}

std::string_view latency_name(Latency latency) {
  switch (latency) {
    case Latency::ttft: return "ttft";
    case Latency::itl: return "itl";
    case Latency::tpot: return "tpot";
    case Latency::e2e: return "e2e";
  }
  return "unknown";
}

void SnapshotBoard::publish(std::shared_ptr<const Snapshot> snapshot) {
  const std::lock_guard lock(mutex_);
  latest_ = std::move(snapshot);
}

std::shared_ptr<const Snapshot> SnapshotBoard::latest() const {
  const std::lock_guard lock(mutex_);
  return latest_;
}

}  // namespace bench::live
