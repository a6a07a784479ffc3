// FixedLatencyModel: each request's tokens at arrival + TTFT, then every step; chunk sizes;
// removal; backpressure holding and resuming a stream; no drift when the loop is late.
#include <gtest/gtest.h>

#include <vector>

#include "bench/sim/generation_model.hpp"

namespace {

using bench::sim::FixedLatencyModel;
using bench::sim::kNever;
using bench::sim::StreamId;

struct Emission {
  StreamId id;
  std::int64_t tokens;
  std::int64_t at_ns;
};

class RecordingSink final : public bench::sim::TokenSink {
 public:
  bool on_tokens(StreamId id, std::int64_t tokens) override {
    emitted.push_back({id, tokens, now});
    return accepting;
  }
  std::vector<Emission> emitted;
  std::int64_t now = 0;
  bool accepting = true;
};

// Steps the model event by event, as the server's loop does when it wakes exactly on time.
void run_until(FixedLatencyModel& model, RecordingSink& sink, std::int64_t end_ns) {
  while (model.next_event_ns() <= end_ns) {
    sink.now = model.next_event_ns();
    model.advance(sink.now, sink);
  }
}

TEST(FixedLatencyModel, EmitsTheFirstTokenAfterTtftAndTheRestEveryTpot) {
  FixedLatencyModel model(10, 2, 1);
  RecordingSink sink;
  model.admit(1, 5, 3, 100);
  EXPECT_EQ(model.next_event_ns(), 110);
  run_until(model, sink, 1000);
  ASSERT_EQ(sink.emitted.size(), 3u);
  EXPECT_EQ(sink.emitted[0].at_ns, 110);
  EXPECT_EQ(sink.emitted[1].at_ns, 112);
  EXPECT_EQ(sink.emitted[2].at_ns, 114);
  EXPECT_EQ(model.next_event_ns(), kNever);
}

TEST(FixedLatencyModel, SeveralTokensPerStepKeepTheTimePerToken) {
  FixedLatencyModel model(10, 2, 4);
  RecordingSink sink;
  model.admit(1, 5, 10, 0);
  run_until(model, sink, 1000);
  ASSERT_EQ(sink.emitted.size(), 3u);
  EXPECT_EQ(sink.emitted[0].tokens, 4);
  EXPECT_EQ(sink.emitted[1].tokens, 4);
  EXPECT_EQ(sink.emitted[2].tokens, 2);
  EXPECT_EQ(sink.emitted[1].at_ns - sink.emitted[0].at_ns, 8);  // 4 tokens x 2 ns
}

TEST(FixedLatencyModel, RequestsDoNotSlowEachOtherDown) {
  FixedLatencyModel model(10, 1, 1);
  RecordingSink sink;
  for (StreamId id = 1; id <= 100; ++id) model.admit(id, 1, 2, 0);
  run_until(model, sink, 1000);
  ASSERT_EQ(sink.emitted.size(), 200u);
  for (const Emission& e : sink.emitted) EXPECT_TRUE(e.at_ns == 10 || e.at_ns == 11);
}

TEST(FixedLatencyModel, ARemovedStreamProducesNothingMore) {
  FixedLatencyModel model(10, 2, 1);
  RecordingSink sink;
  model.admit(1, 5, 100, 0);
  sink.now = 10;
  model.advance(10, sink);
  model.remove(1);
  run_until(model, sink, 10'000);
  EXPECT_EQ(sink.emitted.size(), 1u);
}

TEST(FixedLatencyModel, ALateAdvanceDeliversEverythingDueWithoutDrift) {
  FixedLatencyModel model(10, 2, 1);
  RecordingSink sink;
  model.admit(1, 5, 5, 0);
  sink.now = 15;
  model.advance(15, sink);  // due at 10, 12, 14
  EXPECT_EQ(sink.emitted.size(), 3u);
  EXPECT_EQ(model.next_event_ns(), 16);  // from the schedule, not from 15 + 2
}

TEST(FixedLatencyModel, HoldsAStreamWhoseConnectionIsFullUntilResumed) {
  FixedLatencyModel model(0, 0, 1);  // firehose: everything is due at once
  RecordingSink sink;
  model.admit(1, 5, 10, 0);
  sink.accepting = false;
  model.advance(0, sink);
  EXPECT_EQ(sink.emitted.size(), 1u);
  EXPECT_EQ(model.next_event_ns(), kNever);
  sink.accepting = true;
  model.resume(1, 50);
  model.advance(50, sink);
  EXPECT_EQ(sink.emitted.size(), 10u);
}

}  // namespace
