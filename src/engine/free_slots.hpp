#pragma once
// When each free concurrency slot of a run became free, oldest first: a request that takes a
// slot learns since when it was free (its slot wait). Slots no transfer has used yet are free
// since the run began, so they are a count, not entries: an open loop's unbounded concurrency
// (tens of thousands of slots) would otherwise cost a fill of that many entries before its
// first request (1.2 ms for 65,534, all of it lag of the schedule's first arrival).
//
// A slot whose request could not connect may be given back for a later time (the connection
// backoff, engine.hpp's EngineOptions::connect_backoff_max_ms): it cools until then, and carries
// the count of its consecutive connection failures to the request that takes it next.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace bench::engine {

struct FreeSlot {
  std::int64_t since_ns = 0;  // free since (or, given back cooling, from) this steady-clock ns
  int connect_failures = 0;   // consecutive requests of this slot that could not connect
};

class FreeSlots {
 public:
  void reset(std::int64_t count, std::int64_t since_ns) {
    unused_ = count;
    unused_since_ns_ = since_ns;
    freed_.clear();
    cooling_ = {};
  }

  /// Whether a slot is free at `now_ns`: cooled slots whose time has come are free again.
  bool any_free(std::int64_t now_ns) {
    while (!cooling_.empty() && cooling_.top().since_ns <= now_ns) {
      freed_.push_back(cooling_.top());
      cooling_.pop();
    }
    return unused_ > 0 || !freed_.empty();
  }

  /// The earliest time a slot is free: 0 when one is free without cooling, INT64_MAX when
  /// every slot is taken.
  std::int64_t first_free_ns() const {
    if (unused_ > 0 || !freed_.empty()) return 0;
    return cooling_.empty() ? INT64_MAX : cooling_.top().since_ns;
  }

  /// Takes the slot free longest. any_free() must have said one is.
  FreeSlot take() {
    if (unused_ > 0) {
      --unused_;
      return {unused_since_ns_, 0};
    }
    const FreeSlot slot = freed_.front();
    freed_.pop_front();
    return slot;
  }

  /// A transfer ended: its slot is free again from `slot.since_ns` (the end, or later when the
  /// slot must cool first).
  void give_back(FreeSlot slot, std::int64_t now_ns) {
    if (slot.since_ns > now_ns) {
      cooling_.push(slot);
    } else {
      freed_.push_back(slot);
    }
  }

 private:
  struct LaterFirst {
    bool operator()(const FreeSlot& a, const FreeSlot& b) const { return a.since_ns > b.since_ns; }
  };

  std::int64_t unused_ = 0;           // slots never taken in this run
  std::int64_t unused_since_ns_ = 0;  // the run's start
  std::deque<FreeSlot> freed_;        // slots freed during the run, in the order they were
  std::priority_queue<FreeSlot, std::vector<FreeSlot>, LaterFirst> cooling_;  // soonest on top
};

}  // namespace bench::engine
