#pragma once
// The samples of one latency distribution (TTFT, ITL, ...), exact while they fit a budget and
// a Histogram beyond it, so that a run of any length summarizes in bounded memory.
//
// While at most `exact_budget` values have been added, every value is kept and summarize()
// is exactly summarize() of percentile.hpp (numpy's percentiles, to the bit): results of normal
// runs are the same as from a plain vector. The first value past the budget moves them all
// into a Histogram, and from then on percentiles are within Histogram::kMaxRelativeError
// (about 0.049%) while count, min, max, mean and std stay exact (up to rounding). Memory: 8
// bytes per value up to the budget (8 MB at the default 1,000,000), then the histogram's
// (histogram.hpp: 8 KiB per octave spanned, 256 KiB for 1 us..1 h in ms).
//
// With a shared SampleBudget (sample_budget.hpp), the values kept also count against it: the
// budget of a whole run, across its distributions and threads; the distribution moves to its
// histogram as soon as either limit would be passed.
//
// One per thread; merge after join. NaN and infinite values are left out in both modes, since
// they would make every figure meaningless; rejected() counts them.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "bench/metrics/histogram.hpp"
#include "bench/metrics/percentile.hpp"
#include "bench/metrics/sample_budget.hpp"

namespace bench::metrics {

struct DistributionState;  // accumulator_state.hpp

/// (percentile, value) pairs, in the order the percentiles were asked for: points of a CDF.
using CdfPoints = std::vector<std::pair<double, double>>;

class LatencyDistribution {
 public:
  static constexpr std::size_t kDefaultExactBudget = 1'000'000;

  explicit LatencyDistribution(std::size_t exact_budget = kDefaultExactBudget,
                               std::shared_ptr<SampleBudget> shared = nullptr);

  void add(double value);
  void add(double value, std::uint64_t times);  // `times` equal values, e.g. ITL of a k-token chunk

  /// Adds every value `other` holds. Stays exact when both are exact and the values fit this
  /// one's budget; otherwise the result is this histogram merged with the other's values.
  void merge(const LatencyDistribution& other);

  std::uint64_t count() const;
  std::uint64_t rejected() const { return rejected_ + histogram_.rejected(); }
  bool exact() const { return exact_; }  // every value is still kept

  /// count, mean, std, min, median, p90, p95, p99, max. Sorts the kept values in place (adding
  /// more afterwards is allowed).
  Distribution summarize();

  /// Percentile p (0..100), numpy's definition; exact while exact(), else within the
  /// histogram's relative error. 0 when empty.
  double percentile(double p);

  /// Percentile p of `numerator / value` over the values, a rate from a time (1000 / TPOT in ms
  /// is output tok/s): numpy's definition applied to the rates themselves, so the ranks'
  /// interpolation is between two rates, not the reciprocal of an interpolated time. Exact while
  /// exact(), else the mirrored histogram percentile (within its relative error). nullopt when
  /// empty or a rank it needs holds a value <= 0 (a rate with no time to divide by).
  std::optional<double> reciprocal_percentile(double numerator, double p);

  /// The value at each of `percentiles`, for CDF plots (e.g. 0, 1, ..., 100).
  CdfPoints cdf(std::span<const double> percentiles);

  /// Bytes held: the kept values' storage, or the histogram's.
  std::size_t memory_bytes() const;

  /// Its values (or histogram) as plain data, to be saved and merged elsewhere.
  DistributionState state() const;
  /// The distribution `state` describes, with no budget of its own (it holds what it was
  /// given); nullopt when its histogram is invalid (Histogram::from_state).
  static std::optional<LatencyDistribution> from_state(const DistributionState& state);

 private:
  // Whether `values` more can be kept: within exact_budget_ and, with a shared budget, taken
  // from it (into reserved_).
  bool fits(std::uint64_t values);
  void sort_samples();
  void move_samples_to_histogram();

  std::size_t exact_budget_;
  std::shared_ptr<SampleBudget> shared_;  // null: only exact_budget_ limits
  std::uint64_t reserved_ = 0;            // taken from shared_ and not yet filled
  bool exact_ = true;
  std::vector<double> samples_;  // while exact_
  bool sorted_ = true;           // samples_ is in ascending order
  std::uint64_t rejected_ = 0;   // non-finite values given while exact_
  Histogram histogram_;          // once not exact_
};

}  // namespace bench::metrics
