#include "bench/server_metrics/gauge_buckets.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace bench::server_metrics {
namespace {

// Weighted sums of one gauge inside one bucket: a reading of a merged point weighs
// (the point's readings of the gauge) / (the point's readings).
struct WeightedSum {
  double weight = 0;
  double sum = 0;

  void add(const GaugeStat& stat, std::size_t readings) {
    if (stat.count == 0 || readings == 0) return;
    const double share = 1.0 / static_cast<double>(readings);
    weight += static_cast<double>(stat.count) * share;
    sum += stat.sum * share;
  }
  std::optional<double> mean() const {
    if (weight <= 0) return std::nullopt;
    return sum / weight;
  }
};

struct BucketSums {
  WeightedSum running, waiting, kv;
};

// The bucket holding `at_ns`, or nullopt outside them all.
std::optional<std::size_t> bucket_of(std::span<const BucketSpan> buckets, std::int64_t at_ns) {
  const auto after =
      std::upper_bound(buckets.begin(), buckets.end(), at_ns,
                       [](std::int64_t t, const BucketSpan& span) { return t < span.start_ns; });
  if (after == buckets.begin()) return std::nullopt;
  const auto holding = std::prev(after);
  if (at_ns >= holding->end_ns) return std::nullopt;
  return static_cast<std::size_t>(holding - buckets.begin());
}

// The time of reading `index` of a point's `readings`, spread evenly over its span.
std::int64_t reading_time(const GaugePoint& point, std::size_t index) {
  if (point.readings <= 1) return point.start_ns;
  const double fraction = static_cast<double>(index) / static_cast<double>(point.readings - 1);
  return point.start_ns +
         static_cast<std::int64_t>(fraction * static_cast<double>(point.end_ns - point.start_ns));
}

std::optional<double> sum_if_known(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

std::optional<double> max_if_known(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return std::nullopt;
  return std::max(*a, *b);
}

}  // namespace

std::vector<BucketGauges> bucket_gauges(const GaugeSeries& series,
                                        std::span<const BucketSpan> buckets) {
  std::vector<BucketSums> sums(buckets.size());
  for (const GaugePoint& point : series.points()) {
    for (std::size_t i = 0; i < point.readings; ++i) {
      const std::optional<std::size_t> bucket = bucket_of(buckets, reading_time(point, i));
      if (!bucket) continue;
      sums[*bucket].running.add(point.requests_running, point.readings);
      sums[*bucket].waiting.add(point.requests_waiting, point.readings);
      sums[*bucket].kv.add(point.kv_cache_usage_ratio, point.readings);
    }
  }
  std::vector<BucketGauges> out;
  out.reserve(sums.size());
  for (const BucketSums& bucket : sums) {
    out.push_back({bucket.running.mean(), bucket.waiting.mean(), bucket.kv.mean()});
  }
  return out;
}

std::vector<BucketGauges> combine_servers(const std::vector<std::vector<BucketGauges>>& servers) {
  if (servers.empty()) return {};
  std::vector<BucketGauges> out = servers.front();
  for (std::size_t s = 1; s < servers.size(); ++s) {
    for (std::size_t b = 0; b < out.size() && b < servers[s].size(); ++b) {
      out[b].requests_running =
          sum_if_known(out[b].requests_running, servers[s][b].requests_running);
      out[b].requests_waiting =
          sum_if_known(out[b].requests_waiting, servers[s][b].requests_waiting);
      out[b].kv_cache_usage_ratio =
          max_if_known(out[b].kv_cache_usage_ratio, servers[s][b].kv_cache_usage_ratio);
    }
  }
  return out;
}

}  // namespace bench::server_metrics
