#pragma once
// The server's gauges (running and waiting requests, KV-cache usage) polled through a run, kept
// in bounded memory: exact mean and max over every reading, and a time series for charts that
// halves its resolution whenever it fills (adjacent points merged), so a 24-hour run at one
// reading a second holds at most `max_points` points however long it lasts.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace bench::server_metrics {

/// Mean and max of one gauge over some readings; a reading without the gauge adds nothing.
struct GaugeStat {
  std::size_t count = 0;
  double sum = 0;
  double max = -std::numeric_limits<double>::infinity();

  void add(const std::optional<double>& value);
  void merge(const GaugeStat& other);
  std::optional<double> mean() const;     // nullopt with no reading
  std::optional<double> maximum() const;  // nullopt with no reading
};

/// One poll's gauges; nullopt where the server does not expose one (or NaN).
struct GaugeReading {
  std::int64_t at_ns = 0;  // steady clock, relative to the series' origin
  std::optional<double> requests_running;
  std::optional<double> requests_waiting;
  std::optional<double> kv_cache_usage_ratio;
};

/// Readings from start_ns to end_ns (the first and last reading in it) merged.
struct GaugePoint {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::size_t readings = 0;
  GaugeStat requests_running;
  GaugeStat requests_waiting;
  GaugeStat kv_cache_usage_ratio;

  void add(const GaugeReading& reading);
  void merge(const GaugePoint& other);
};

class GaugeSeries {
 public:
  static constexpr std::size_t kDefaultMaxPoints = 2048;

  /// `max_points` >= 2: the most points the series keeps.
  explicit GaugeSeries(std::size_t max_points = kDefaultMaxPoints);

  void add(const GaugeReading& reading);

  /// Every reading merged: the exact mean and max of each gauge over the whole run.
  const GaugePoint& totals() const { return totals_; }
  /// The time series, oldest first; each point merges readings_per_point() readings (the last
  /// one possibly fewer).
  const std::vector<GaugePoint>& points() const { return points_; }
  std::size_t readings_per_point() const { return readings_per_point_; }
  std::size_t max_points() const { return max_points_; }

 private:
  void halve();

  std::size_t max_points_;
  std::size_t readings_per_point_ = 1;
  GaugePoint totals_;
  std::vector<GaugePoint> points_;
};

}  // namespace bench::server_metrics
