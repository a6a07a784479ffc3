#include "bench/metrics/latency_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

namespace bench::metrics {

namespace {

// Values taken from a shared budget at a time, so its atomic is rarely touched: 1,024, or a
// 1,024th of a smaller budget, so that what distributions hold reserved and unused stays small.
std::uint64_t reserve_chunk(const SampleBudget& budget) {
  return std::clamp<std::uint64_t>(budget.limit() / 1024, 1, 1024);
}

}  // namespace

LatencyDistribution::LatencyDistribution(std::size_t exact_budget,
                                         std::shared_ptr<SampleBudget> shared)
    : exact_budget_(exact_budget), shared_(std::move(shared)) {}

bool LatencyDistribution::fits(std::uint64_t values) {
  if (values > exact_budget_ - samples_.size()) return false;
  if (!shared_ || values <= reserved_) return true;
  const std::uint64_t need = values - reserved_;
  const std::uint64_t chunk = std::max(need, reserve_chunk(*shared_));
  if (shared_->take(chunk)) {
    reserved_ += chunk;
    return true;
  }
  if (!shared_->take(need)) return false;
  reserved_ += need;
  return true;
}

void LatencyDistribution::add(double value) { add(value, 1); }

void LatencyDistribution::add(double value, std::uint64_t times) {
  if (times == 0) return;
  if (exact_ && !std::isfinite(value)) {
    rejected_ += times;
    return;
  }
  if (exact_ && !fits(times)) move_samples_to_histogram();
  if (!exact_) {
    histogram_.record(value, times);
    return;
  }
  if (shared_) reserved_ -= times;
  if (sorted_ && !samples_.empty() && value < samples_.back()) sorted_ = false;
  samples_.insert(samples_.end(), static_cast<std::size_t>(times), value);
}

void LatencyDistribution::merge(const LatencyDistribution& other) {
  rejected_ += other.rejected_;
  // Values of another thread on the same shared budget are counted in it already.
  const bool counted = shared_ && shared_ == other.shared_;
  const std::uint64_t incoming = other.samples_.size();
  if (exact_ && other.exact_ &&
      (counted ? incoming <= exact_budget_ - samples_.size() : fits(incoming))) {
    if (shared_ && !counted) reserved_ -= incoming;
    if (!other.samples_.empty()) {
      sorted_ = sorted_ && other.sorted_ &&
                (samples_.empty() || samples_.back() <= other.samples_.front());
      samples_.insert(samples_.end(), other.samples_.begin(), other.samples_.end());
    }
    return;
  }
  if (exact_) move_samples_to_histogram();
  if (other.exact_) {
    for (double value : other.samples_) histogram_.record(value);
  } else {
    histogram_.merge(other.histogram_);
  }
}

std::uint64_t LatencyDistribution::count() const {
  return exact_ ? samples_.size() : histogram_.count();
}

void LatencyDistribution::sort_samples() {
  if (!sorted_) std::sort(samples_.begin(), samples_.end());
  sorted_ = true;
}

void LatencyDistribution::move_samples_to_histogram() {
  if (shared_) shared_->give_back(samples_.size() + reserved_);
  reserved_ = 0;
  for (double value : samples_) histogram_.record(value);
  std::vector<double>().swap(samples_);  // give the memory back, not just the size
  exact_ = false;
}

Distribution LatencyDistribution::summarize() {
  if (exact_) {
    Distribution d = metrics::summarize(samples_);  // the one exact definition; sorts in place
    sorted_ = true;
    return d;
  }
  Distribution d;
  if (histogram_.count() == 0) return d;
  constexpr double kReported[] = {50, 90, 95, 99};
  const std::vector<double> values = histogram_.percentiles(kReported);
  d.count = static_cast<std::int64_t>(histogram_.count());
  d.mean = histogram_.mean();
  d.std = histogram_.stddev();
  d.min = histogram_.min();
  d.max = histogram_.max();
  d.median = values[0];
  d.p90 = values[1];
  d.p95 = values[2];
  d.p99 = values[3];
  return d;
}

double LatencyDistribution::percentile(double p) {
  if (!exact_) return histogram_.percentile(p);
  sort_samples();
  return percentile_sorted(samples_, p);
}

std::optional<double> LatencyDistribution::reciprocal_percentile(double numerator, double p) {
  if (count() == 0) return std::nullopt;
  const auto rate = [numerator](double value) {
    return value > 0 ? std::optional<double>(numerator / value) : std::nullopt;
  };
  if (!exact_) return rate(histogram_.percentile(100.0 - p));
  sort_samples();
  // The rates in ascending order are the values in descending order: rate rank i is value rank
  // n - 1 - i. numpy's linear interpolation on the rates' ranks, as percentile_sorted does.
  const std::size_t n = samples_.size();
  const double h = static_cast<double>(n - 1) * p / 100.0;
  const auto low = static_cast<std::size_t>(std::floor(h));
  const std::size_t high = std::min(low + 1, n - 1);
  const double fraction = h - static_cast<double>(low);
  const std::optional<double> at_low = rate(samples_[n - 1 - low]);
  if (!at_low) return std::nullopt;
  if (fraction == 0) return at_low;
  const std::optional<double> at_high = rate(samples_[n - 1 - high]);
  if (!at_high) return std::nullopt;
  return *at_low + fraction * (*at_high - *at_low);
}

CdfPoints LatencyDistribution::cdf(std::span<const double> percentiles) {
  CdfPoints points;
  points.reserve(percentiles.size());
  if (exact_) {
    sort_samples();
    for (double p : percentiles) points.emplace_back(p, percentile_sorted(samples_, p));
    return points;
  }
  const std::vector<double> values = histogram_.percentiles(percentiles);
  for (std::size_t i = 0; i < percentiles.size(); ++i) {
    points.emplace_back(percentiles[i], values[i]);
  }
  return points;
}

std::size_t LatencyDistribution::memory_bytes() const {
  return sizeof(*this) - sizeof(histogram_) + histogram_.memory_bytes() +
         samples_.capacity() * sizeof(double);
}

}  // namespace bench::metrics
