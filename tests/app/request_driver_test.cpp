// The request driver on its own: the test is the engine (it asks next_due_ns, takes requests
// with the times a slot became free and the request was sent, and ends each transfer) and the
// clock (every time is chosen, counted from an epoch the test sets). What is held is what the
// driver writes into each record: intended start, slot wait, warm-up, index, and where it stops.
#include "bench/app/point/request_driver.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/schedule/arrival.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/util/clock.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt_source.hpp"

namespace {

using bench::app::DriverPlan;
using bench::app::RequestDriver;
using bench::metrics::RequestRecord;

constexpr std::int64_t kDriverMs = 1'000'000;

class KeptRecords final : public bench::app::RecordSink {
 public:
  void on_record(const RequestRecord& record) override { records.push_back(record); }
  std::vector<RequestRecord> records;
};

std::unique_ptr<bench::workload::PromptSource> driver_prompts() {
  bench::workload::DatasetOptions options;
  options.input_len = 8;
  options.output_len = 2;
  options.seed = 5;
  return bench::workload::open_prompt_source(options);
}

DriverPlan driver_plan(const bench::workload::PromptSource& prompts, std::int64_t epoch_ns) {
  DriverPlan plan;
  plan.urls = {"http://127.0.0.1:9/v1/completions"};
  plan.request.endpoint = bench::protocol::Endpoint::completions;
  plan.prompts = &prompts;
  plan.lookahead = 4;
  plan.epoch_ns = epoch_ns;
  return plan;
}

// The engine's part for one request: take it at the given times (epoch-relative) and end it
// with a one-token stream 1 ms after it was sent.
void send_one(RequestDriver& driver, std::int64_t epoch_ns, std::int64_t slot_free_ms,
              std::int64_t send_ms) {
  const bench::engine::TransferRequest request =
      driver.take_next(epoch_ns + slot_free_ms * kDriverMs, epoch_ns + send_ms * kDriverMs);
  ASSERT_NE(request.handler, nullptr);
  request.handler->on_headers(200, "text/event-stream");
  request.handler->on_body("data: {\"choices\":[{\"index\":0,\"text\":\"hi\"}]}\n\n",
                           epoch_ns + (send_ms + 1) * kDriverMs);
  request.handler->on_body("data: [DONE]\n\n", epoch_ns + (send_ms + 1) * kDriverMs);
  bench::engine::TransferEnd end;
  end.end_ns = epoch_ns + (send_ms + 1) * kDriverMs;
  request.handler->on_end(end);
}

// An open loop due at the given offsets (ms after the epoch), none of them warm-up.
bench::schedule::OpenLoopSchedule schedule_at_ms(const std::vector<std::int64_t>& offsets_ms) {
  auto offsets = std::make_shared<std::vector<std::int64_t>>();
  for (const std::int64_t ms : offsets_ms) offsets->push_back(ms * kDriverMs);
  using bench::schedule::ArrivalStream;
  return bench::schedule::OpenLoopSchedule(
      ArrivalStream::of_offsets(offsets, 0, 0, 0),
      ArrivalStream::of_offsets(offsets, 0, offsets->size(), 0), 0);
}

TEST(RequestDriver, ClosedLoopIntendedStartIsWhenTheSlotFreedButNotBeforeTheEpoch) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  KeptRecords sink;
  RequestDriver driver(driver_plan(*prompts, epoch), sink);
  EXPECT_EQ(driver.next_due_ns(), epoch);  // a closed loop's request is due at once
  send_one(driver, epoch, -5, 2);          // a slot free before the run began: due at the epoch
  send_one(driver, epoch, 7, 9);           // a slot freed 7 ms in, sent 2 ms later
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[0].intended_start_ns, 0);
  EXPECT_EQ(sink.records[0].start_ns, 2 * kDriverMs);
  EXPECT_EQ(sink.records[1].intended_start_ns, 7 * kDriverMs);
  EXPECT_EQ(sink.records[1].start_ns, 9 * kDriverMs);
  EXPECT_EQ(sink.records[1].slot_wait_ns, 0);  // a closed loop never waits for a slot after due
}

TEST(RequestDriver, OpenLoopIntendedStartIsTheScheduleAndTheSlotWaitWhatCameAfter) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  const bench::schedule::OpenLoopSchedule schedule = schedule_at_ms({10, 20, 30});
  DriverPlan plan = driver_plan(*prompts, epoch);
  plan.schedule = &schedule;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  EXPECT_EQ(driver.next_due_ns(), epoch + 10 * kDriverMs);
  send_one(driver, epoch, 4, 11);  // a slot was free before it was due: no wait
  EXPECT_EQ(driver.next_due_ns(), epoch + 20 * kDriverMs);
  send_one(driver, epoch, 26, 27);  // due at 20, no slot until 26: 6 ms the user waited
  EXPECT_EQ(driver.next_due_ns(), epoch + 30 * kDriverMs);
  send_one(driver, epoch, 30, 30);
  EXPECT_EQ(driver.next_due_ns(), std::nullopt);  // the schedule is spent
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_EQ(sink.records[0].intended_start_ns, 10 * kDriverMs);
  EXPECT_EQ(sink.records[0].slot_wait_ns, 0);
  EXPECT_EQ(sink.records[1].intended_start_ns, 20 * kDriverMs);
  EXPECT_EQ(sink.records[1].slot_wait_ns, 6 * kDriverMs);
  EXPECT_EQ(sink.records[1].start_ns, 27 * kDriverMs);
  EXPECT_EQ(sink.records[2].slot_wait_ns, 0);
}

TEST(RequestDriver, WarmUpByCountIsTheFirstRequests) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  DriverPlan plan = driver_plan(*prompts, epoch);
  plan.warmup_requests = 2;
  plan.measured_requests = 2;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  for (int i = 0; i < 4; ++i) send_one(driver, epoch, i, i);
  EXPECT_EQ(driver.next_due_ns(), std::nullopt);  // two measured requests sent: done
  ASSERT_EQ(sink.records.size(), 4u);
  EXPECT_TRUE(sink.records[0].warmup);
  EXPECT_TRUE(sink.records[1].warmup);
  EXPECT_FALSE(sink.records[2].warmup);
  EXPECT_FALSE(sink.records[3].warmup);
  EXPECT_EQ(driver.sent(), 4u);
  EXPECT_EQ(driver.measured_sent(), 2u);
}

TEST(RequestDriver, WarmUpByTimeIsWhatWasSentBeforeItsEnd) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  DriverPlan plan = driver_plan(*prompts, epoch);
  plan.warmup_until_ns = 5 * kDriverMs;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  send_one(driver, epoch, 0, 4);
  send_one(driver, epoch, 4, 5);  // sent at the warm-up's end: measured
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_TRUE(sink.records[0].warmup);
  EXPECT_FALSE(sink.records[1].warmup);
  EXPECT_EQ(driver.measured_sent(), 1u);
}

TEST(RequestDriver, ClosedLoopSendsNothingOnceTheDurationFromItsFirstMeasuredRequestIsOver) {
  const auto prompts = driver_prompts();
  // The clock stands 10 s after the epoch: a 1 s measured phase that began at the epoch is over,
  // one of 60 s is not.
  const std::int64_t epoch = bench::now_ns() - 10'000 * kDriverMs;
  for (const std::int64_t duration_ms : {1'000, 60'000}) {
    DriverPlan plan = driver_plan(*prompts, epoch);
    plan.measured_duration_ns = duration_ms * kDriverMs;
    plan.cancel_at_duration_end = true;
    KeptRecords sink;
    RequestDriver driver(plan, sink);
    EXPECT_EQ(driver.cancel_at_ns(), bench::app::kNoLimitNs);  // not begun: no end yet
    send_one(driver, epoch, 0, 0);
    EXPECT_EQ(driver.cancel_at_ns(), epoch + duration_ms * kDriverMs);
    if (duration_ms == 1'000) {
      EXPECT_EQ(driver.next_due_ns(), std::nullopt);
    } else {
      EXPECT_EQ(driver.next_due_ns(), epoch);
    }
  }
}

TEST(RequestDriver, OpenLoopSendsNoArrivalAtOrAfterTheDurationsEnd) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  const bench::schedule::OpenLoopSchedule schedule = schedule_at_ms({0, 400, 999, 1'000, 1'500});
  DriverPlan plan = driver_plan(*prompts, epoch);
  plan.schedule = &schedule;
  plan.measured_duration_ns = 1'000 * kDriverMs;  // the measured phase starts at the first arrival
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  std::vector<std::int64_t> sent_at_ms;
  while (const std::optional<std::int64_t> due = driver.next_due_ns()) {
    const std::int64_t at_ms = (*due - epoch) / kDriverMs;
    send_one(driver, epoch, at_ms, at_ms);
    sent_at_ms.push_back(at_ms);
  }
  EXPECT_EQ(sent_at_ms, (std::vector<std::int64_t>{0, 400, 999}));
}

TEST(RequestDriver, AShardsDriverSendsEveryStrideThRequestFromItsFirst) {
  const auto prompts = driver_prompts();
  const std::int64_t epoch = bench::now_ns();
  DriverPlan plan = driver_plan(*prompts, epoch);
  plan.first = 1;
  plan.stride = 3;
  plan.end_request = 11;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  std::vector<std::uint64_t> indices;
  while (driver.next_due_ns()) {
    send_one(driver, epoch, 0, 0);
    indices.push_back(sink.records.back().index);
  }
  EXPECT_EQ(indices, (std::vector<std::uint64_t>{1, 4, 7, 10}));
}

}  // namespace
