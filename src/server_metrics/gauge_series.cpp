#include "bench/server_metrics/gauge_series.hpp"

#include <algorithm>
#include <cmath>

namespace bench::server_metrics {

void GaugeStat::add(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return;
  ++count;
  sum += *value;
  max = std::max(max, *value);
}

void GaugeStat::merge(const GaugeStat& other) {
  count += other.count;
  sum += other.sum;
  max = std::max(max, other.max);
}

std::optional<double> GaugeStat::mean() const {
  if (count == 0) return std::nullopt;
  return sum / static_cast<double>(count);
}

std::optional<double> GaugeStat::maximum() const {
  if (count == 0) return std::nullopt;
  return max;
}

void GaugePoint::add(const GaugeReading& reading) {
  if (readings == 0) start_ns = reading.at_ns;
  end_ns = reading.at_ns;
  ++readings;
  requests_running.add(reading.requests_running);
  requests_waiting.add(reading.requests_waiting);
  kv_cache_usage_ratio.add(reading.kv_cache_usage_ratio);
}

void GaugePoint::merge(const GaugePoint& other) {
  if (other.readings == 0) return;
  if (readings == 0) start_ns = other.start_ns;
  end_ns = other.end_ns;
  readings += other.readings;
  requests_running.merge(other.requests_running);
  requests_waiting.merge(other.requests_waiting);
  kv_cache_usage_ratio.merge(other.kv_cache_usage_ratio);
}

GaugeSeries::GaugeSeries(std::size_t max_points)
    : max_points_(std::max<std::size_t>(2, max_points)) {
  points_.reserve(max_points_);
}

void GaugeSeries::add(const GaugeReading& reading) {
  totals_.add(reading);
  if (points_.empty() || points_.back().readings >= readings_per_point_) {
    if (points_.size() == max_points_) halve();
    if (points_.empty() || points_.back().readings >= readings_per_point_) points_.emplace_back();
  }
  points_.back().add(reading);
}

// Full: each pair of neighbours becomes one point, and every point from now on holds twice as
// many readings, so the series keeps covering the whole run at half the resolution.
void GaugeSeries::halve() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < points_.size(); i += 2) {
    GaugePoint merged = points_[i];
    if (i + 1 < points_.size()) merged.merge(points_[i + 1]);
    points_[kept++] = merged;
  }
  points_.resize(kept);
  readings_per_point_ *= 2;
}

}  // namespace bench::server_metrics
