#pragma once
// How many raw latency values a run keeps, across all its distributions (TTFT, ITL, ICL, TPOT,
// E2E, connect, schedule and client lag, and the two from the intended start) and all its
// client threads together. While the budget lasts every value is kept and percentiles are
// exact (numpy's, to the bit); a distribution that needs more than is left moves its values
// into a Histogram (histogram.hpp: within 0.049% relative error, count, min, max, mean and std
// still exact) and gives its share back for the others. Memory for raw values is so bounded by
// 8 bytes x the budget (and the vectors' growth slack), whatever the run's length.
//
// Thread-safe: distributions of several threads take from one budget (in chunks, so the
// atomic is touched about once per thousand values).
#include <atomic>
#include <cstdint>

namespace bench::metrics {

class SampleBudget {
 public:
  /// 2,000,000 values: 16 MB of raw samples; a run of 5,000 requests of 200 tokens stays exact.
  static constexpr std::uint64_t kDefaultValues = 2'000'000;

  explicit SampleBudget(std::uint64_t values = kDefaultValues) : limit_(values) {}
  SampleBudget(const SampleBudget&) = delete;
  SampleBudget& operator=(const SampleBudget&) = delete;

  /// Takes `values` from what is left; false (and nothing taken) when fewer are left.
  bool take(std::uint64_t values) {
    std::uint64_t used = used_.load(std::memory_order_relaxed);
    do {
      if (values > limit_ - used) return false;
    } while (!used_.compare_exchange_weak(used, used + values, std::memory_order_relaxed));
    return true;
  }
  void give_back(std::uint64_t values) { used_.fetch_sub(values, std::memory_order_relaxed); }

  std::uint64_t limit() const { return limit_; }
  std::uint64_t used() const { return used_.load(std::memory_order_relaxed); }

 private:
  const std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
};

}  // namespace bench::metrics
