#pragma once
// A mergeable log-linear histogram of doubles, for distributions too long to keep sample by
// sample (a million requests of 256 tokens is 256 million ITL values).
//
// The idea is HdrHistogram's (Gil Tene): buckets that are linear within each power of two and
// so have the same relative width everywhere. Here the bucket of a value is read straight off
// its IEEE-754 bits: the exponent picks the power of two (an "octave") and the top
// kSubBucketBits bits of the mantissa pick one of 1024 equal sub-buckets inside it. A bucket
// [lower, upper) has upper - lower <= lower / 1024, and every value in it is reported as the
// middle of the bucket, so a reported value is within kMaxRelativeError (1/2048, about 0.049%)
// of the true one, whatever the unit and the magnitude. The unit is the caller's: bench records
// milliseconds, as its Distributions are in milliseconds.
//
// Percentiles follow percentile.hpp's definition (numpy's linear interpolation between closest
// ranks) over the values as the buckets report them; since both neighbouring ranks are within
// the relative error, so is their interpolation. min, max, mean and std are kept exactly, not
// from buckets, and percentiles are clamped to [min, max], so p0 and p100 are exact.
//
// Memory: counts are 8 bytes per sub-bucket, 8 KiB per octave, held for the octaves between
// the smallest and the largest magnitude recorded (negative values in a mirror of the same).
// Milliseconds from 1 us to 1 h span 32 octaves: 256 KiB of counts, whatever the count; a
// latency distribution that spans 5 ms..500 ms takes 56 KiB. memory_bytes() says the exact size.
//
// Values: any finite double. Zero and magnitudes below DBL_MIN (2.2e-308, the subnormals) are
// counted as zero. NaN and infinities are not recorded (they would poison mean and std);
// rejected() counts them. One histogram belongs to one thread; merge after join.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace bench::metrics {

struct HistogramState;  // accumulator_state.hpp

/// A Histogram's exact statistics, kept beside its buckets. Its saved contents (HistogramState)
/// carry the same struct, copied whole, and visit_stats() is the one list of their names: a new
/// statistic is its member and one line there.
struct HistogramStats {
  std::uint64_t count = 0;     // finite values recorded
  std::uint64_t rejected = 0;  // NaN and infinite values left out
  std::uint64_t zeros = 0;     // zero and subnormal values
  double min = 0, max = 0;     // of the finite values; meaningless while count is 0
  // Running mean and sum of squared deviations (Welford; batches and merges by Chan et al.'s
  // pairwise update), stable where a plain sum of squares is not.
  double mean = 0, m2 = 0;

  /// visit(name, a.field, b.field, ...) for each statistic of those given, in one order: a
  /// shard's saved histogram and its reading (results/shard_state.cpp) go through it.
  template <typename Visit, typename... Stats>
  static void visit_stats(Visit&& field, Stats&... h) {
    field("count", h.count...);
    field("rejected", h.rejected...);
    field("zeros", h.zeros...);
    field("min", h.min...);
    field("max", h.max...);
    field("mean", h.mean...);
    field("m2", h.m2...);
  }
};

class Histogram {
 public:
  static constexpr int kSubBucketBits = 10;
  static constexpr std::size_t kSubBuckets = std::size_t{1} << kSubBucketBits;
  static constexpr double kMaxRelativeError = 1.0 / static_cast<double>(2 * kSubBuckets);

  /// Records `value` `times` times.
  void record(double value, std::uint64_t times = 1);

  /// Adds everything `other` recorded: the result is as if every value had been recorded here.
  void merge(const Histogram& other);

  std::uint64_t count() const { return stats_.count; }
  std::uint64_t rejected() const { return stats_.rejected; }  // NaN and infinite values left out
  double min() const;                                         // exact; 0 when empty
  double max() const;                                         // exact; 0 when empty
  double mean() const { return stats_.mean; }                 // exact up to rounding; 0 when empty
  double stddev() const;  // population standard deviation (numpy's default), as summarize()

  /// Percentile p (0..100) by numpy's linear interpolation, within kMaxRelativeError of the
  /// exact value; 0 when empty.
  double percentile(double p) const;

  /// percentile() of each of `percentiles`, in their order, in one pass over the buckets.
  std::vector<double> percentiles(std::span<const double> percentiles) const;

  /// Bytes this histogram occupies, its bucket storage included.
  std::size_t memory_bytes() const;

  /// Its contents as plain data, to be saved and merged elsewhere (a shard's results).
  HistogramState state() const;
  /// The histogram `state` describes; nullopt when a bucket is out of range or the bucket
  /// counts do not add up to its count.
  static std::optional<Histogram> from_state(const HistogramState& state);

 private:
  // Counts of the values of one sign, by magnitude: octave o (the biased IEEE-754 exponent)
  // and sub-bucket s sit at counts[(o - first_octave) * kSubBuckets + s], for the octaves
  // between the lowest and the highest recorded so far.
  struct Magnitudes {
    int first_octave = 0;
    std::vector<std::uint64_t> counts;

    void add(int octave, std::size_t sub_bucket, std::uint64_t times);
    void cover(int low_octave, int high_octave);  // grows storage to span these octaves
    int octaves() const { return static_cast<int>(counts.size() / kSubBuckets); }
  };

  // The value a bucket reports: the middle of [lower, upper) of bucket `index` of `magnitudes`.
  static double bucket_middle(const Magnitudes& magnitudes, std::size_t index);
  // The values at the given ascending ranks (0-based, in the order of the values).
  std::vector<double> values_at_ranks(const std::vector<std::uint64_t>& ranks) const;

  Magnitudes positive_, negative_;
  HistogramStats stats_;
};

}  // namespace bench::metrics
