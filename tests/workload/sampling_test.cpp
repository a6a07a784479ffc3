#include "bench/workload/sampling.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::workload::shuffled_order;

TEST(Sampling, ShuffledOrderHoldsEveryItemOnce) {
  std::vector<std::uint32_t> order = shuffled_order(100, 7);
  std::vector<std::uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> all(100);
  std::iota(all.begin(), all.end(), std::uint32_t{0});
  EXPECT_EQ(sorted, all);
  EXPECT_NE(order, all);
}

TEST(Sampling, ShuffledOrderDependsOnlyOnTheSeed) {
  EXPECT_EQ(shuffled_order(50, 7), shuffled_order(50, 7));
  EXPECT_NE(shuffled_order(50, 7), shuffled_order(50, 8));
  EXPECT_TRUE(shuffled_order(0, 7).empty());
}

}  // namespace
