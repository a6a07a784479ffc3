#pragma once
// When each free concurrency slot of a run became free, oldest first: a request that takes a
// slot learns since when it was free (its slot wait). Slots no transfer has used yet are free
// since the run began, so they are a count, not entries: an open loop's unbounded concurrency
// (tens of thousands of slots) would otherwise cost a fill of that many entries before its
// first request (1.2 ms for 65,534, all of it lag of the schedule's first arrival).
#include <cstdint>
#include <deque>

namespace bench::engine {

class FreeSlots {
 public:
  void reset(std::int64_t count, std::int64_t since_ns) {
    unused_ = count;
    unused_since_ns_ = since_ns;
    freed_.clear();
  }

  /// Takes the slot free longest and returns since when it was free. At least one must be free.
  std::int64_t take() {
    if (unused_ > 0) {
      --unused_;
      return unused_since_ns_;
    }
    const std::int64_t since_ns = freed_.front();
    freed_.pop_front();
    return since_ns;
  }

  /// A transfer ended at `since_ns`: its slot is free again.
  void give_back(std::int64_t since_ns) { freed_.push_back(since_ns); }

 private:
  std::int64_t unused_ = 0;           // slots never taken in this run
  std::int64_t unused_since_ns_ = 0;  // the run's start
  std::deque<std::int64_t> freed_;    // slots freed during the run, in the order they were
};

}  // namespace bench::engine
