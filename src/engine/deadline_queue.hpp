#pragma once
// bench's own per-request deadlines (time to first token, silence mid-stream) as one min-heap
// of timers, so the event loop wakes exactly when the earliest is
// due instead of sweeping every transfer every few tens of milliseconds. Entries are never
// removed early: a transfer that ends or moves on makes its entries stale (its serial no longer
// matches), and they are dropped when they reach the top, or all at once when they outnumber the
// live ones (drop), so the heap stays the size of the concurrency, not of the run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::engine {

// The whole-request limit is curl's (CURLOPT_TIMEOUT_MS): curl's timer feeds the same wake, and
// curl alone knows whether a connection exists, which tells a request timeout from a connect one.
enum class DeadlineKind { first_token, stall };

struct Deadline {
  std::int64_t at_ns = 0;
  std::uint64_t transfer_serial = 0;  // which transfer (slots are reused; serials are not)
  std::uint32_t slot = 0;             // index of the slot that carried it
  DeadlineKind kind = DeadlineKind::first_token;
};

class DeadlineQueue {
 public:
  void push(const Deadline& deadline) {
    heap_.push_back(deadline);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  /// The earliest deadline's time; INT64_MAX when there is none.
  std::int64_t next_ns() const { return heap_.empty() ? INT64_MAX : heap_.front().at_ns; }
  /// Removes and returns the earliest deadline; call only when !empty().
  Deadline pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Deadline top = heap_.back();
    heap_.pop_back();
    return top;
  }
  void clear() { heap_.clear(); }

  /// Drops every entry `stale` says no longer matters, at once (O(size)). Stale entries
  /// otherwise wait for their time, which is the whole TTFT or stall limit: at thousands of
  /// requests a second that is memory growing with the run's length.
  template <class Stale>
  void drop(Stale stale) {
    std::erase_if(heap_, stale);
    std::make_heap(heap_.begin(), heap_.end(), Later{});
  }

 private:
  struct Later {
    bool operator()(const Deadline& a, const Deadline& b) const { return a.at_ns > b.at_ns; }
  };
  std::vector<Deadline> heap_;  // a min-heap on at_ns (std::push_heap with Later)
};

}  // namespace bench::engine
