#include "bench/metrics/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace bench::metrics {

namespace {

constexpr int kMantissaBits = 52;
constexpr int kSubBucketShift = kMantissaBits - Histogram::kSubBucketBits;
constexpr std::uint64_t kExponentMask = 0x7FF;

struct Bucket {
  int octave;              // biased exponent, 1..2046 for normal numbers; 0 for zero/subnormal
  std::size_t sub_bucket;  // top kSubBucketBits bits of the mantissa
};

Bucket bucket_of(double magnitude) {
  const auto bits = std::bit_cast<std::uint64_t>(magnitude);
  return {static_cast<int>((bits >> kMantissaBits) & kExponentMask),
          static_cast<std::size_t>((bits >> kSubBucketShift) & (Histogram::kSubBuckets - 1))};
}

// The smallest magnitude of bucket (octave, sub_bucket), and of the one after it (which may be
// the first of the next octave, or infinity after the largest).
double bucket_lower(int octave, std::size_t sub_bucket) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(octave) << kMantissaBits) |
                             (static_cast<std::uint64_t>(sub_bucket) << kSubBucketShift);
  return std::bit_cast<double>(bits);
}

double bucket_upper(int octave, std::size_t sub_bucket) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(octave) << kMantissaBits) |
                             (static_cast<std::uint64_t>(sub_bucket) << kSubBucketShift);
  return std::bit_cast<double>(bits + (std::uint64_t{1} << kSubBucketShift));
}

// numpy's _lerp, as percentile_sorted() does it: from the nearer end, never outside [a, b].
double interpolate(double a, double b, double gamma) {
  const double diff = b - a;
  return gamma >= 0.5 ? b - diff * (1.0 - gamma) : a + diff * gamma;
}

}  // namespace

void Histogram::Magnitudes::cover(int low_octave, int high_octave) {
  if (counts.empty()) {
    first_octave = low_octave;
    counts.assign(static_cast<std::size_t>(high_octave - low_octave + 1) * kSubBuckets, 0);
    return;
  }
  const int low = std::min(low_octave, first_octave);
  const int high = std::max(high_octave, first_octave + octaves() - 1);
  if (low == first_octave && high == first_octave + octaves() - 1) return;
  // Exactly the octaves needed (no geometric growth): the bound in the header is the memory.
  std::vector<std::uint64_t> grown(static_cast<std::size_t>(high - low + 1) * kSubBuckets, 0);
  std::copy(counts.begin(), counts.end(),
            grown.begin() + static_cast<std::ptrdiff_t>(
                                static_cast<std::size_t>(first_octave - low) * kSubBuckets));
  counts.swap(grown);
  first_octave = low;
}

void Histogram::Magnitudes::add(int octave, std::size_t sub_bucket, std::uint64_t times) {
  cover(octave, octave);
  counts[static_cast<std::size_t>(octave - first_octave) * kSubBuckets + sub_bucket] += times;
}

void Histogram::record(double value, std::uint64_t times) {
  if (times == 0) return;
  if (!std::isfinite(value)) {
    stats_.rejected += times;
    return;
  }
  const Bucket bucket = bucket_of(std::fabs(value));
  if (bucket.octave == 0) {
    stats_.zeros += times;
  } else {
    (value < 0 ? negative_ : positive_).add(bucket.octave, bucket.sub_bucket, times);
  }

  stats_.min = stats_.count == 0 ? value : std::min(stats_.min, value);
  stats_.max = stats_.count == 0 ? value : std::max(stats_.max, value);
  // Chan et al.'s update for a batch of `times` equal values (mean `value`, no spread).
  const auto n_before = static_cast<double>(stats_.count);
  const auto n_batch = static_cast<double>(times);
  stats_.count += times;
  const auto n = static_cast<double>(stats_.count);
  const double delta = value - stats_.mean;
  stats_.mean += delta * n_batch / n;
  stats_.m2 += delta * delta * n_before * n_batch / n;
}

void Histogram::merge(const Histogram& other) {
  stats_.rejected += other.stats_.rejected;
  if (other.stats_.count == 0) return;
  for (const auto& [into, from] :
       {std::pair{&positive_, &other.positive_}, std::pair{&negative_, &other.negative_}}) {
    if (from->counts.empty()) continue;
    into->cover(from->first_octave, from->first_octave + from->octaves() - 1);
    const std::size_t offset =
        static_cast<std::size_t>(from->first_octave - into->first_octave) * kSubBuckets;
    for (std::size_t i = 0; i < from->counts.size(); ++i) {
      into->counts[offset + i] += from->counts[i];
    }
  }
  stats_.zeros += other.stats_.zeros;

  stats_.min = stats_.count == 0 ? other.stats_.min : std::min(stats_.min, other.stats_.min);
  stats_.max = stats_.count == 0 ? other.stats_.max : std::max(stats_.max, other.stats_.max);
  const auto n_a = static_cast<double>(stats_.count);
  const auto n_b = static_cast<double>(other.stats_.count);
  stats_.count += other.stats_.count;
  const auto n = static_cast<double>(stats_.count);
  const double delta = other.stats_.mean - stats_.mean;
  stats_.mean += delta * n_b / n;
  stats_.m2 += other.stats_.m2 + delta * delta * n_a * n_b / n;
}

double Histogram::min() const { return stats_.count == 0 ? 0 : stats_.min; }
double Histogram::max() const { return stats_.count == 0 ? 0 : stats_.max; }

double Histogram::stddev() const {
  return stats_.count == 0
             ? 0
             : std::sqrt(std::max(0.0, stats_.m2) / static_cast<double>(stats_.count));
}

double Histogram::bucket_middle(const Magnitudes& magnitudes, std::size_t index) {
  const int octave = magnitudes.first_octave + static_cast<int>(index / kSubBuckets);
  const std::size_t sub_bucket = index % kSubBuckets;
  const double lower = bucket_lower(octave, sub_bucket);
  const double upper = bucket_upper(octave, sub_bucket);
  return lower + (upper - lower) / 2;
}

std::vector<double> Histogram::values_at_ranks(const std::vector<std::uint64_t>& ranks) const {
  std::vector<double> values;
  values.reserve(ranks.size());
  std::size_t next = 0;    // the next rank to find
  std::uint64_t seen = 0;  // values in the buckets walked so far
  // Every rank below `seen + bucket_count` falls in the bucket at hand.
  const auto take = [&](std::uint64_t bucket_count, double value) {
    seen += bucket_count;
    while (next < ranks.size() && ranks[next] < seen) {
      values.push_back(std::clamp(value, stats_.min, stats_.max));
      ++next;
    }
  };
  // Ascending order of value: negatives by falling magnitude, zeros, positives by rising one.
  for (std::size_t i = negative_.counts.size(); i-- > 0 && next < ranks.size();) {
    if (negative_.counts[i] != 0) take(negative_.counts[i], -bucket_middle(negative_, i));
  }
  if (stats_.zeros != 0) take(stats_.zeros, 0.0);
  for (std::size_t i = 0; i < positive_.counts.size() && next < ranks.size(); ++i) {
    if (positive_.counts[i] != 0) take(positive_.counts[i], bucket_middle(positive_, i));
  }
  return values;
}

std::vector<double> Histogram::percentiles(std::span<const double> percentiles) const {
  std::vector<double> results(percentiles.size(), 0.0);
  if (stats_.count == 0) return results;

  // numpy's "linear" method, as percentile_sorted(): virtual index h = (n - 1) * q between the
  // ranks floor(h) and floor(h) + 1.
  struct Position {
    std::uint64_t below, above;
    double gamma;
  };
  std::vector<Position> positions;
  std::vector<std::uint64_t> ranks;
  for (double p : percentiles) {
    const double q = std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 100.0) / 100.0;
    const double h = static_cast<double>(stats_.count - 1) * q;
    const double floor_h = std::floor(h);
    const auto below = std::min(static_cast<std::uint64_t>(floor_h), stats_.count - 1);
    const std::uint64_t above = std::min(below + 1, stats_.count - 1);
    positions.push_back({below, above, h - floor_h});
    ranks.push_back(below);
    ranks.push_back(above);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  const std::vector<double> values = values_at_ranks(ranks);

  const auto value_at = [&](std::uint64_t rank) {
    // The extreme ranks are known exactly.
    if (rank == 0) return stats_.min;
    if (rank == stats_.count - 1) return stats_.max;
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    return values[static_cast<std::size_t>(it - ranks.begin())];
  };
  for (std::size_t i = 0; i < percentiles.size(); ++i) {
    if (std::isnan(percentiles[i])) continue;  // 0, as percentile_sorted() gives for NaN
    const Position& at = positions[i];
    results[i] = interpolate(value_at(at.below), value_at(at.above), at.gamma);
  }
  return results;
}

double Histogram::percentile(double p) const { return percentiles(std::span(&p, 1)).front(); }

std::size_t Histogram::memory_bytes() const {
  return sizeof(*this) +
         (positive_.counts.capacity() + negative_.counts.capacity()) * sizeof(std::uint64_t);
}

}  // namespace bench::metrics
