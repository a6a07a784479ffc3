// Which server each request goes to with several --base-url: round robin, weights exact over
// every whole cycle and interleaved within it, a function of the request index alone (so shards
// and threads agree), and connections shared in proportion.
#include "bench/app/point/server_spread.hpp"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::app::ServerSpread;

std::vector<std::size_t> servers_of(const ServerSpread& spread, std::uint64_t first,
                                    std::uint64_t count, std::uint64_t stride = 1) {
  std::vector<std::size_t> out;
  for (std::uint64_t i = 0; i < count; ++i) out.push_back(spread.server_of(first + i * stride));
  return out;
}

TEST(ServerSpread, EqualWeightsAreRoundRobinByRequestIndex) {
  const ServerSpread spread({1, 1, 1});
  EXPECT_EQ(servers_of(spread, 0, 7), (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(spread.servers(), 3u);
}

TEST(ServerSpread, WeightsAreExactOverEveryWholeCycleAndInterleaved) {
  const ServerSpread spread({3, 1});
  // nginx's smooth weighted round robin: A A B A, not A A A B.
  EXPECT_EQ(servers_of(spread, 0, 4), (std::vector<std::size_t>{0, 0, 1, 0}));
  std::vector<int> counts(2, 0);
  for (const std::size_t server : servers_of(spread, 1000, 400)) ++counts[server];
  EXPECT_EQ(counts, (std::vector<int>{300, 100}));

  const ServerSpread uneven({5, 2, 3});
  std::vector<int> thirds(3, 0);
  for (const std::size_t server : servers_of(uneven, 0, 100)) ++thirds[server];
  EXPECT_EQ(thirds, (std::vector<int>{50, 20, 30}));
}

TEST(ServerSpread, ShardsAndThreadsTakingEveryNthRequestSendEachServerWhatOneProcessWould) {
  const ServerSpread spread({3, 1});
  std::vector<int> whole(2, 0);
  for (const std::size_t server : servers_of(spread, 0, 120)) ++whole[server];
  // Three shards of two threads each: six strides of six over the same 120 indices.
  std::vector<int> parts(2, 0);
  for (std::uint64_t first = 0; first < 6; ++first) {
    for (const std::size_t server : servers_of(spread, first, 20, 6)) ++parts[server];
  }
  EXPECT_EQ(parts, whole);
  // The same index goes to the same server in any process that builds the spread.
  EXPECT_EQ(servers_of(ServerSpread({3, 1}), 0, 50), servers_of(spread, 0, 50));
}

TEST(ServerSpread, SharesConnectionsInProportionWithTheRemainderToTheFirst) {
  const ServerSpread spread({3, 1});
  EXPECT_EQ(spread.share_of(10, 0), 8);  // 7.5 -> 7, and the one left over
  EXPECT_EQ(spread.share_of(10, 1), 2);
  EXPECT_EQ(spread.share_of(0, 0) + spread.share_of(0, 1), 0);
  const ServerSpread even({1, 1, 1});
  EXPECT_EQ(even.share_of(4, 0) + even.share_of(4, 1) + even.share_of(4, 2), 4);
  EXPECT_EQ(even.share_of(4, 0), 2);
}

}  // namespace
