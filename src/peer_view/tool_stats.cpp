#include "tool_stats.hpp"

#include <algorithm>

#include "bench/metrics/percentile.hpp"

namespace bench::peer_view {

namespace {

ThreeStats linear(const std::vector<WeightedValue>& values) {
  std::vector<double> plain;
  plain.reserve(values.size());
  for (const WeightedValue& v : values) plain.push_back(v.value);
  const metrics::Distribution d = metrics::summarize(plain);
  return {d.mean, d.median, d.p99};
}

// GuideLLM's Percentiles.from_pdf: the values sorted, each weight over the total summed in
// order into a CDF, and a percentile the first value whose CDF reaches it (numpy's searchsorted,
// side "left"); its mean the weighted mean.
ThreeStats weighted_rank(std::vector<WeightedValue> values) {
  std::sort(values.begin(), values.end(),
            [](const WeightedValue& a, const WeightedValue& b) { return a.value < b.value; });
  double total = 0, weighted_sum = 0;
  for (const WeightedValue& v : values) {
    total += v.weight;
    weighted_sum += v.value * v.weight;
  }
  if (total <= 0) return {};
  std::vector<double> cdf;
  double cumulative = 0;
  for (const WeightedValue& v : values) cdf.push_back(cumulative += v.weight / total);
  const auto at = [&](double p) {
    const auto found = std::lower_bound(cdf.begin(), cdf.end(), p);
    const auto index =
        std::min<std::size_t>(static_cast<std::size_t>(found - cdf.begin()), values.size() - 1);
    return values[index].value;
  };
  return {weighted_sum / total, at(0.5), at(0.99)};
}

}  // namespace

ThreeStats three_stats(Percentiles rule, std::vector<WeightedValue> values) {
  if (values.empty()) return {};
  switch (rule) {
    case Percentiles::linear: return linear(values);
    case Percentiles::weighted_rank: return weighted_rank(std::move(values));
  }
  return {};
}

}  // namespace bench::peer_view
