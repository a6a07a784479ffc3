#include "bench/app/point/server_spread.hpp"

#include <numeric>

namespace bench::app {

ServerSpread::ServerSpread(const std::vector<std::int64_t>& weights) : weights_(weights) {
  if (weights_.empty()) weights_ = {1};
  const std::int64_t total = std::accumulate(weights_.begin(), weights_.end(), std::int64_t{0});
  // Smooth weighted round robin: each place, every server gains its weight and the one with
  // the most (the first of equals) is chosen and pays the total back.
  std::vector<std::int64_t> current(weights_.size(), 0);
  cycle_.reserve(static_cast<std::size_t>(total));
  for (std::int64_t place = 0; place < total; ++place) {
    std::size_t chosen = 0;
    for (std::size_t k = 0; k < weights_.size(); ++k) {
      current[k] += weights_[k];
      if (current[k] > current[chosen]) chosen = k;
    }
    current[chosen] -= total;
    cycle_.push_back(static_cast<std::uint32_t>(chosen));
  }
}

std::int64_t ServerSpread::share_of(std::int64_t total, std::size_t server) const {
  const std::int64_t sum = std::accumulate(weights_.begin(), weights_.end(), std::int64_t{0});
  std::int64_t given = 0;
  for (const std::int64_t weight : weights_) given += total * weight / sum;
  const std::int64_t left = total - given;  // fewer than servers(): one each to the first
  return total * weights_[server] / sum + (static_cast<std::int64_t>(server) < left ? 1 : 0);
}

}  // namespace bench::app
