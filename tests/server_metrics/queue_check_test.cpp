// One poll's queueing held against bench's requests in flight: waiting within bench's own count
// is the server queueing bench's load; more requests at the server than bench had in flight, or
// any waiting while bench had none, is others sharing the server.
#include "bench/server_metrics/queue_check.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace {

using bench::server_metrics::classify_queue;
using bench::server_metrics::QueueCounts;
using bench::server_metrics::QueueSight;

TEST(QueueCheck, NothingWaitingIsNothingSeen) {
  EXPECT_EQ(classify_queue(8, 0, 8), QueueSight::none);
  EXPECT_EQ(classify_queue(3, std::nullopt, 0), QueueSight::none);  // no waiting gauge
  EXPECT_EQ(classify_queue(3, std::numeric_limits<double>::quiet_NaN(), 0), QueueSight::none);
}

TEST(QueueCheck, WaitingWithinBenchsOwnCountIsTheServerQueueing) {
  EXPECT_EQ(classify_queue(4, 4, 8), QueueSight::server_queues);
  EXPECT_EQ(classify_queue(4, 2, 8), QueueSight::server_queues);  // some still on the wire
}

TEST(QueueCheck, MoreAtTheServerThanBenchHadInFlightIsOthers) {
  EXPECT_EQ(classify_queue(4, 5, 8), QueueSight::beyond_bench);
  EXPECT_EQ(classify_queue(std::nullopt, 9, 8), QueueSight::beyond_bench);
}

TEST(QueueCheck, WaitingWhileBenchIsIdleIsOthers) {
  EXPECT_EQ(classify_queue(0, 1, 0), QueueSight::bench_idle);
}

TEST(QueueCheck, CountsAddUpPerSight) {
  QueueCounts counts;
  for (QueueSight sight : {QueueSight::none, QueueSight::server_queues, QueueSight::beyond_bench,
                           QueueSight::beyond_bench, QueueSight::bench_idle}) {
    counts.add(sight);
  }
  QueueCounts more;
  more.add(QueueSight::server_queues);
  counts.merge(more);
  EXPECT_EQ(counts.polls, 6u);
  EXPECT_EQ(counts.server_queues, 2u);
  EXPECT_EQ(counts.beyond_bench, 2u);
  EXPECT_EQ(counts.bench_idle, 1u);
}

}  // namespace
