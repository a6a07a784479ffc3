// BatchingModel: the first token at the end of the step that finishes the prompt, decode steps
// that slow down with the batch, chunked prefill within the step budget, the queue behind
// --max-running-requests and the KV budget (FIFO), removal, backpressure, the time scale, and
// steps chained from the schedule so a late loop does not drift.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "bench/sim/batching_model.hpp"

namespace {

using bench::sim::BatchingModel;
using bench::sim::EngineParams;
using bench::sim::kNever;
using bench::sim::StepFacts;
using bench::sim::StreamId;

constexpr std::int64_t kUs = 1000;  // ns

struct BatchEmission {
  StreamId id;
  std::int64_t at_ns;
  std::int64_t batch_size;
};

class BatchRecordingSink final : public bench::sim::TokenSink {
 public:
  bool on_tokens(StreamId id, std::int64_t tokens) override {
    EXPECT_EQ(tokens, 1);
    emitted.push_back({id, now, last_batch[id]});
    return accepting;
  }
  void on_step(StreamId id, const StepFacts& facts) override {
    steps[id].push_back(facts);
    last_batch[id] = facts.batch_size;
  }
  std::vector<std::int64_t> times_of(StreamId id) const {
    std::vector<std::int64_t> times;
    for (const BatchEmission& e : emitted) {
      if (e.id == id) times.push_back(e.at_ns);
    }
    return times;
  }
  std::vector<BatchEmission> emitted;
  std::map<StreamId, std::vector<StepFacts>> steps;
  std::map<StreamId, std::int64_t> last_batch;
  std::int64_t now = 0;
  bool accepting = true;
};

// Steps the model event by event, as the server's loop does when it wakes exactly on time.
void run_until(BatchingModel& model, BatchRecordingSink& sink, std::int64_t end_ns) {
  while (model.next_event_ns() <= end_ns) {
    sink.now = model.next_event_ns();
    model.advance(sink.now, sink);
  }
}

// Easy numbers: a step costs 1000 us, plus 100 us per decoding sequence, plus 10 us per prompt
// token; no collectives, no attention term.
EngineParams simple() {
  EngineParams p;
  p.max_running_requests = 64;
  p.kv_cache_tokens = 1'000'000;
  p.max_batched_tokens = 4096;
  p.step_us = 1000;
  p.decode_us_per_seq = 100;
  p.prefill_us_per_token = 10;
  p.decode_ns_per_context_token = 0;
  p.comm_us_per_step = 0;
  return p;
}

TEST(BatchingModel, SendsTheFirstTokenAtTheEndOfThePrefillStepThenOnePerDecodeStep) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 100, 3, 0);
  EXPECT_EQ(model.next_event_ns(), 0);  // an idle engine starts at once
  run_until(model, sink, kNever - 1);
  // Prefill: 1000 + 100 x 10 us; then decode steps of 1000 + 1 x 100 us.
  const std::vector<std::int64_t> expected = {2000 * kUs, 3100 * kUs, 4200 * kUs};
  EXPECT_EQ(sink.times_of(1), expected);
  EXPECT_EQ(model.next_event_ns(), kNever);
  EXPECT_EQ(model.kv_used_tokens(), 0);
}

TEST(BatchingModel, TimePerTokenGrowsWithTheNumberOfDecodingSequences) {
  const auto itl_with = [](int sequences) {
    BatchingModel model(simple(), 1.0);
    BatchRecordingSink sink;
    for (StreamId id = 1; id <= static_cast<StreamId>(sequences); ++id) model.admit(id, 10, 5, 0);
    run_until(model, sink, kNever - 1);
    const std::vector<std::int64_t> times = sink.times_of(1);
    return times[2] - times[1];
  };
  EXPECT_EQ(itl_with(1), 1100 * kUs);
  EXPECT_EQ(itl_with(4), 1400 * kUs);
  EXPECT_EQ(itl_with(32), 4200 * kUs);
}

TEST(BatchingModel, ChunksALongPromptOverStepsWithinTheTokenBudget) {
  EngineParams p = simple();
  p.max_batched_tokens = 100;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  model.admit(1, 250, 2, 0);
  run_until(model, sink, kNever - 1);
  const std::vector<StepFacts>& steps = sink.steps[1];
  ASSERT_EQ(steps.size(), 4u);  // 100 + 100 + 50 prompt tokens, then one decode step
  EXPECT_EQ(steps[0].prefill_tokens, 100);
  EXPECT_EQ(steps[1].prefill_tokens, 100);
  EXPECT_EQ(steps[2].prefill_tokens, 50);
  EXPECT_FALSE(steps[1].prefill_done);
  EXPECT_TRUE(steps[2].prefill_done);
  EXPECT_EQ(steps[3].prefill_tokens, 0);
  EXPECT_EQ(sink.times_of(1).front(), steps[2].end_ns);
  EXPECT_EQ(steps[0].end_ns, steps[1].start_ns);  // back to back
}

TEST(BatchingModel, ServesRunningDecodesFirstAndFillsTheStepWithANewcomersPrompt) {
  EngineParams p = simple();
  p.max_batched_tokens = 50;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  model.admit(1, 10, 100, 0);
  run_until(model, sink, 2500 * kUs);  // stream 1 is decoding by now
  model.admit(2, 120, 3, sink.now);
  run_until(model, sink, kNever - 1);
  // Each step after the arrival holds stream 1's decode (1 token of budget) and 49 prompt
  // tokens of stream 2, which takes 3 steps (49 + 49 + 22) to start.
  std::vector<std::int64_t> chunks;
  for (const StepFacts& facts : sink.steps[2]) {
    if (facts.prefill_tokens > 0) chunks.push_back(facts.prefill_tokens);
    EXPECT_EQ(facts.batch_size, 2);
  }
  EXPECT_EQ(chunks, (std::vector<std::int64_t>{49, 49, 22}));
}

TEST(BatchingModel, QueuesRequestsBeyondMaxRunningAndStartsThemAsSlotsFree) {
  EngineParams p = simple();
  p.max_running_requests = 2;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  for (StreamId id = 1; id <= 6; ++id) model.admit(id, 10, 4, 0);
  sink.now = 0;
  model.advance(0, sink);
  EXPECT_EQ(model.running(), 2u);
  EXPECT_EQ(model.waiting(), 4u);
  run_until(model, sink, kNever - 1);
  // Pairs run one after the other: each pair's first token comes after the previous pair's last.
  for (StreamId id = 3; id <= 6; id += 2) {
    EXPECT_GT(sink.times_of(id).front(), sink.times_of(id - 2).back());
    EXPECT_EQ(sink.times_of(id).front(), sink.times_of(id + 1).front());
  }
  EXPECT_LT(sink.times_of(1).front(), sink.times_of(3).front());
  EXPECT_LT(sink.times_of(3).front(), sink.times_of(5).front());
}

TEST(BatchingModel, WaitsForKvSpaceAndNeverLetsALaterRequestOvertake) {
  EngineParams p = simple();
  p.kv_cache_tokens = 300;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  model.admit(1, 150, 50, 0);  // 200 tokens of KV
  model.admit(2, 150, 50, 0);  // does not fit beside 1
  model.admit(3, 10, 10, 0);   // would fit, but waits behind 2 (FIFO)
  sink.now = 0;
  model.advance(0, sink);
  EXPECT_EQ(model.running(), 1u);
  EXPECT_EQ(model.kv_used_tokens(), 200);
  run_until(model, sink, kNever - 1);
  EXPECT_GT(sink.times_of(2).front(), sink.times_of(1).back());
  EXPECT_GT(sink.times_of(3).front(), sink.times_of(1).back());
  EXPECT_EQ(model.kv_used_tokens(), 0);
}

TEST(BatchingModel, ARemovedRequestFreesItsSlotAndProducesNothingMore) {
  EngineParams p = simple();
  p.max_running_requests = 1;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  model.admit(1, 10, 1000, 0);
  model.admit(2, 10, 2, 0);
  run_until(model, sink, 5000 * kUs);
  const std::size_t before = sink.times_of(1).size();
  model.remove(1);
  EXPECT_EQ(model.kv_used_tokens(), 0);
  run_until(model, sink, kNever - 1);
  EXPECT_EQ(sink.times_of(1).size(), before);
  EXPECT_EQ(sink.times_of(2).size(), 2u);
}

TEST(BatchingModel, HoldsASequenceWhoseConnectionIsFullOutOfTheBatchUntilResumed) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 10, 10, 0);
  model.admit(2, 10, 10, 0);
  sink.accepting = false;
  sink.now = 0;
  model.advance(0, sink);
  run_until(model, sink, model.next_event_ns());  // the prefill step ends: both are held
  EXPECT_EQ(sink.emitted.size(), 2u);
  EXPECT_EQ(model.next_event_ns(), kNever);  // nothing to run
  sink.accepting = true;
  model.resume(2, 10'000 * kUs);
  run_until(model, sink, 20'000 * kUs);
  EXPECT_EQ(sink.times_of(1).size(), 1u);  // still held: not in any step
  EXPECT_EQ(sink.last_batch[2], 1);        // 2 ran alone
  model.resume(1, sink.now);
  run_until(model, sink, kNever - 1);
  EXPECT_EQ(sink.times_of(1).size(), 10u);
  EXPECT_EQ(sink.times_of(2).size(), 10u);
}

TEST(BatchingModel, TimeScaleDividesEveryStepDuration) {
  BatchingModel real(simple(), 1.0);
  BatchingModel fast(simple(), 20.0);
  EXPECT_EQ(real.step_ns(8, 0, 100), (1000 + 800 + 1000) * kUs);
  EXPECT_EQ(fast.step_ns(8, 0, 100), (1000 + 800 + 1000) * kUs / 20);
  BatchRecordingSink sink;
  fast.admit(1, 100, 1, 0);
  run_until(fast, sink, kNever - 1);
  EXPECT_EQ(sink.times_of(1).front(), 2000 * kUs / 20);
}

TEST(BatchingModel, CostModelAddsCollectivesAndAttentionOverTheCachedTokens) {
  EngineParams p = simple();
  p.comm_us_per_step = 500;
  p.decode_ns_per_context_token = 50;
  BatchingModel model(p, 1.0);
  // 1000 + 500 + 3 x 100 us + 50 ns x 3000 cached tokens + 10 us x 20 prompt tokens.
  EXPECT_EQ(model.step_ns(3, 3000, 20), (1000 + 500 + 300 + 150 + 200) * kUs);
}

TEST(BatchingModel, ARequestArrivingDuringAStepJoinsTheNextOne) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 100, 5, 0);
  sink.now = 0;
  model.advance(0, sink);             // step [0, 2000 us)
  model.admit(2, 100, 5, 500 * kUs);  // mid-step
  EXPECT_EQ(model.next_event_ns(), 2000 * kUs);
  run_until(model, sink, kNever - 1);
  ASSERT_FALSE(sink.steps[2].empty());
  EXPECT_EQ(sink.steps[2].front().start_ns, 2000 * kUs);
}

// The server's loop ran late: the step ended at 2000 us, the engine went idle, and a request
// that arrived at 2500 us, after that end but before the loop caught up, must still be served.
TEST(BatchingModel, ARequestArrivingAfterTheLastStepEndedButBeforeTheLoopCaughtUpIsServed) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 100, 1, 0);
  sink.now = 0;
  model.advance(0, sink);              // step [0, 2000 us): request 1's only token
  model.admit(2, 100, 1, 2500 * kUs);  // told while the model still thinks it is in that step
  sink.now = 3000 * kUs;
  model.advance(sink.now, sink);  // the step ends; the engine would be idle but for request 2
  EXPECT_EQ(sink.times_of(1).size(), 1u);
  run_until(model, sink, kNever - 1);
  ASSERT_EQ(sink.times_of(2).size(), 1u);
  EXPECT_EQ(sink.steps[2].front().start_ns, 3000 * kUs);  // as soon as the loop looked
}

TEST(BatchingModel, ALateAdvanceDeliversEveryStepDueWithoutDrift) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 100, 4, 0);
  sink.now = 0;
  model.advance(0, sink);
  sink.now = 3500 * kUs;
  model.advance(sink.now, sink);  // steps ended at 2000 and 3100 us
  EXPECT_EQ(sink.times_of(1).size(), 2u);
  EXPECT_EQ(model.next_event_ns(), 4200 * kUs);  // from the schedule, not from 3500
}

TEST(BatchingModel, EveryRequestGetsExactlyItsTokensAndTheKvBudgetBalances) {
  EngineParams p = simple();
  p.max_running_requests = 7;
  p.kv_cache_tokens = 2000;
  p.max_batched_tokens = 300;
  BatchingModel model(p, 1.0);
  BatchRecordingSink sink;
  std::map<StreamId, std::int64_t> wanted;
  std::int64_t at = 0;
  for (StreamId id = 1; id <= 60; ++id) {
    const std::int64_t prompt = static_cast<std::int64_t>((id * 37) % 400 + 1);
    const std::int64_t output = static_cast<std::int64_t>((id * 11) % 90 + 1);
    wanted[id] = output;
    run_until(model, sink, at);
    model.admit(id, prompt, output, at);
    at += 700 * kUs;
  }
  run_until(model, sink, kNever - 1);
  std::map<StreamId, std::int64_t> got;
  for (const BatchEmission& e : sink.emitted) ++got[e.id];
  EXPECT_EQ(got, wanted);
  EXPECT_EQ(model.kv_used_tokens(), 0);
  EXPECT_EQ(model.running() + model.waiting(), 0u);
  for (const BatchEmission& e : sink.emitted) EXPECT_LE(e.batch_size, 7);
}

}  // namespace

namespace {

TEST(BatchingModel, PrefixCachedPromptTokensSkipPrefillButTheLastIsAlwaysComputed) {
  BatchingModel model(simple(), 1.0);
  BatchRecordingSink sink;
  model.admit(1, 100, 1, 0);
  model.skip_prefill(1, 96);  // six 16-token blocks cached: 4 tokens left to compute
  model.admit(2, 100, 1, 0);
  model.skip_prefill(2, 100);  // the whole prompt: its last token is computed anyway
  run_until(model, sink, kNever - 1);
  // One step prefills 4 + 1 tokens: 1000 us + 10 us x 5.
  EXPECT_EQ(sink.times_of(1), (std::vector<std::int64_t>{1050 * kUs}));
  EXPECT_EQ(sink.times_of(2), (std::vector<std::int64_t>{1050 * kUs}));
  EXPECT_EQ(sink.steps[1].front().prefill_tokens, 4);
  EXPECT_EQ(model.kv_used_tokens(), 0);  // both finished and freed their whole footprint
}

}  // namespace
