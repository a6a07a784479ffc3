#pragma once
// TTFT, TPOT and E2E of the requests that ran inside the steady-state window (timeline.hpp):
// started at or after its start and ended before its end, so neither the ramp-up nor the drain
// (the last requests finishing alone, in a smaller batch) is in them. The window is known only
// when the run ends, so each completed request's times are kept (5 raw values, 40 bytes) until
// then, drawn from the run's one raw-value budget (sample_budget.hpp); when the budget runs out
// they are dropped and the steady-state latencies are unknown, never a partial set.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "bench/metrics/percentile.hpp"
#include "bench/metrics/sample_budget.hpp"

namespace bench::metrics {

/// Why the steady-state latencies of a run are unknown, kept as data so a report says the one
/// reason that applies rather than a list of guesses.
enum class SteadyLatencyGap {
  none,            // known
  no_window,       // the run has no steady-state window
  none_inside,     // no completed request started and ended inside the window
  few_inside,      // under half the completed requests fit in the window: no steady state
  budget_ran_out,  // the raw-value budget ran out before the run ended
  merged,          // merged from shards (bench merge), whose results keep no request's times
};

/// "none", "no_window", "none_inside", "few_inside", "budget_ran_out", "merged".
std::string_view steady_latency_gap_name(SteadyLatencyGap gap);

struct SteadyLatencies {
  std::int64_t requests = 0;              // completed requests inside the window
  Distribution ttft_ms, tpot_ms, e2e_ms;  // ttft over those with text, tpot >= 2 tokens
};

class SteadyLatencyLog {
 public:
  explicit SteadyLatencyLog(std::shared_ptr<SampleBudget> budget);
  ~SteadyLatencyLog();
  SteadyLatencyLog(SteadyLatencyLog&&) noexcept = default;
  SteadyLatencyLog& operator=(SteadyLatencyLog&&) noexcept;

  /// One completed request, times on the records' clock; ttft_ms when it had text, tpot_ms
  /// when it had >= 2 tokens.
  void add(std::int64_t start_ns, std::int64_t end_ns, std::optional<double> ttft_ms,
           std::optional<double> tpot_ms, double e2e_ms);
  /// Everything another log (of another client thread) kept.
  void merge(SteadyLatencyLog&& other);
  /// False once the budget ran out: every request's times were not kept.
  bool complete() const { return complete_; }
  /// The latencies of the requests within [from_ns, to_ns); nullopt when incomplete.
  std::optional<SteadyLatencies> within(std::int64_t from_ns, std::int64_t to_ns) const;

 private:
  struct Entry {
    std::int64_t start_ns, end_ns;
    double ttft_ms, tpot_ms, e2e_ms;  // ttft_ms, tpot_ms < 0: none
  };
  static constexpr std::uint64_t kValuesPerEntry = 5;  // 40 bytes = five 8-byte raw values
  static constexpr std::size_t kEntriesPerTake = 1024;
  void drop();

  std::shared_ptr<SampleBudget> budget_;
  std::vector<Entry> entries_;
  std::size_t reserved_ = 0;  // entries taken from the budget
  bool complete_ = true;
};

}  // namespace bench::metrics
