#pragma once
// The one percentile definition bench uses everywhere: linear interpolation between the two
// closest ranks, numpy's default ("linear" method), which SGLang's and vLLM's benchmarks use.
// For sorted values v[0..n-1] and p in [0, 100]: h = (n - 1) * p / 100,
// result = v[floor(h)] + (h - floor(h)) * (v[floor(h) + 1] - v[floor(h)]).
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace bench::metrics {

/// Percentile p (0..100) of ascending-sorted values; 0 for an empty span.
double percentile_sorted(std::span<const double> sorted, double p);

/// Summary statistics of one latency (or other) distribution. All fields share the unit of the
/// input values. std is the population standard deviation (numpy's default, as SGLang/vLLM).
struct Distribution {
  std::int64_t count = 0;
  double mean = 0, std = 0, min = 0, median = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
  // (p, value) at each of SummaryOptions::asked_percentiles (vLLM's --metric-percentiles), in
  // their order; empty when none were asked or nothing was measured.
  std::vector<std::pair<double, double>> asked;
};

/// The statistic `field` of `d` ({mean, median, ...}), or nullopt when `d` holds no values: a
/// statistic of nothing is unknown, never 0 (the fields of an empty Distribution are 0 only
/// because a double must hold something).
std::optional<double> known_stat(const Distribution& d, double Distribution::*field);

/// Sorts `values` in place and summarizes them.
Distribution summarize(std::vector<double>& values);

}  // namespace bench::metrics
