#include "bench/workload/sampling.hpp"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kShuffleStream = 0x73687566666c65ULL;  // "shuffle"

}  // namespace

std::vector<std::uint32_t> shuffled_order(std::size_t count, std::uint64_t seed) {
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  detail::DrawEngine engine = detail::engine_for(seed, kShuffleStream);
  detail::shuffle_in_place(order, engine);
  return order;
}

}  // namespace bench::workload
