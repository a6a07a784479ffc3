#include "bench/metrics/percentile.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace bench::metrics {

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty() || std::isnan(p)) return 0;
  const double q = std::clamp(p, 0.0, 100.0) / 100.0;
  // numpy's "linear" method: virtual index (n - 1) * q, gamma its fractional part.
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const double below = std::floor(h);
  const auto lo = static_cast<std::size_t>(below);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double gamma = h - below;
  const double a = sorted[lo];
  const double b = sorted[hi];
  // Interpolate from the nearer end, as numpy's _lerp does, so results match numpy's to the bit
  // and never leave [a, b] through rounding.
  const double diff = b - a;
  return gamma >= 0.5 ? b - diff * (1.0 - gamma) : a + diff * gamma;
}

std::optional<double> known_stat(const Distribution& d, double Distribution::*field) {
  if (d.count <= 0) return std::nullopt;
  return d.*field;
}

Distribution summarize(std::vector<double>& values) {
  Distribution d;
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());

  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / n;
  // Two passes: the mean first, then squared deviations (stable where sum-of-squares is not).
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);

  d.count = static_cast<std::int64_t>(values.size());
  d.mean = mean;
  d.std = std::sqrt(squares / n);  // population std (ddof = 0), numpy's default
  d.min = values.front();
  d.max = values.back();
  d.median = percentile_sorted(values, 50);
  d.p90 = percentile_sorted(values, 90);
  d.p95 = percentile_sorted(values, 95);
  d.p99 = percentile_sorted(values, 99);
  return d;
}

}  // namespace bench::metrics
