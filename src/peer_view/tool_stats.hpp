#pragma once
// The three statistics shown of each distribution (mean, median, p99), by a tool's rule for
// percentiles.
#include <optional>
#include <vector>

#include "bench/peer_view/tool_rules.hpp"

namespace bench::peer_view {

struct WeightedValue {
  double value = 0;
  double weight = 1;  // only weighted_rank reads it
};

struct ThreeStats {
  std::optional<double> mean, median, p99;  // nullopt when there are no values
};

ThreeStats three_stats(Percentiles rule, std::vector<WeightedValue> values);

}  // namespace bench::peer_view
