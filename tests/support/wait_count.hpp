#pragma once
// A count that other threads bump and a test waits on: the test wakes as soon as the count is
// reached (or a bound passes, for what must not happen), never after a fixed sleep.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace bench::testing {

class WaitCount {
 public:
  void add(int n = 1) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      value_ += n;
    }
    changed_.notify_all();
  }

  int value() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return value_;
  }

  /// Waits until the count is at least `at_least`, for at most `timeout`; whether it got there.
  bool wait_for_at_least(int at_least, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return value_ >= at_least; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int value_ = 0;
};

}  // namespace bench::testing
