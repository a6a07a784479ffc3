// The request driver on its own: the test is the engine (it asks next_due_ns, takes requests
// with the times a slot became free and the request was sent, and ends each transfer) and the
// clock (every time is chosen, counted from an epoch the test sets; where the driver reads the
// time itself, the closed loop's and the turns' stops, FakeClock through
// DriverPlan::Timing::clock_ns). What is held is what the driver writes into each record: intended
// start, slot wait, warm-up, index, and where it stops.
#include "bench/app/point/request_driver.hpp"
#include "bench/app/point/session_driver.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/schedule/arrival.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/util/clock.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt_source.hpp"

namespace {

using bench::app::DriverPlan;
using bench::app::RequestDriver;
using bench::app::SessionDriver;
using bench::metrics::RequestRecord;

constexpr std::int64_t kDriverMs = 1'000'000;

class KeptRecords final : public bench::app::RecordSink {
 public:
  void on_record(const RequestRecord& record) override { records.push_back(record); }
  void on_session(const bench::app::SessionEnd& session) override { sessions.push_back(session); }
  std::vector<RequestRecord> records;
  std::vector<bench::app::SessionEnd> sessions;
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
  plan.target.urls = {"http://127.0.0.1:9/v1/completions"};
  plan.target.request.endpoint = bench::protocol::Endpoint::completions;
  plan.bodies.prompts.source = &prompts;
  plan.bodies.lookahead = 4;
  plan.timing.epoch_ns = epoch_ns;
  return plan;
}

// The engine's part for one request: take it at the given times (epoch-relative) and end it
// with a one-token stream 1 ms after it was sent; or, when the driver could not make it, end it
// unsent at once, with the end the driver gave.
void send_one(bench::app::PointDriver& driver, std::int64_t epoch_ns, std::int64_t slot_free_ms,
              std::int64_t send_ms) {
  const bench::engine::TransferRequest request =
      driver.take_next(epoch_ns + slot_free_ms * kDriverMs, epoch_ns + send_ms * kDriverMs);
  ASSERT_NE(request.handler, nullptr);
  if (request.unsent) {
    EXPECT_TRUE(request.body.empty());
    bench::engine::TransferEnd end = *request.unsent;
    end.end_ns = epoch_ns + send_ms * kDriverMs;
    request.handler->on_end(end);
    return;
  }
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
  plan.per_prompt.schedule = &schedule;
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
  plan.per_prompt.warmup_requests = 2;
  plan.per_prompt.measured_requests = 2;
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
  plan.per_prompt.warmup_until_ns = 5 * kDriverMs;
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
    plan.timing.measured_duration_ns = duration_ms * kDriverMs;
    plan.timing.cancel_at_duration_end = true;
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
  plan.per_prompt.schedule = &schedule;
  plan.timing.measured_duration_ns =
      1'000 * kDriverMs;  // the measured phase starts at the first arrival
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
  plan.per_prompt.end_request = 11;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  std::vector<std::uint64_t> indices;
  while (driver.next_due_ns()) {
    send_one(driver, epoch, 0, 0);
    indices.push_back(sink.records.back().index);
  }
  EXPECT_EQ(indices, (std::vector<std::uint64_t>{1, 4, 7, 10}));
}

// A clock the test sets (DriverPlan::Timing::clock_ns), at an epoch a second past its zero.
struct FakeClock {
  std::int64_t epoch = 1'000 * kDriverMs;
  std::int64_t now = epoch;
  void at_ms(std::int64_t ms, std::int64_t plus_ns = 0) { now = epoch + ms * kDriverMs + plus_ns; }
};

DriverPlan driver_plan(const bench::workload::PromptSource& prompts, FakeClock& clock) {
  DriverPlan plan = driver_plan(prompts, clock.epoch);
  plan.timing.clock_ns = [&clock] { return clock.now; };
  return plan;
}

TEST(RequestDriver, ClosedLoopStartsNothingAtOrAfterItsSendUntilTime) {
  const auto prompts = driver_prompts();
  FakeClock clock;
  DriverPlan plan = driver_plan(*prompts, clock);
  plan.per_prompt.send_until_ns = 50 * kDriverMs;  // a warm-up by time run as a phase of its own
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  clock.at_ms(50, -1);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch);
  send_one(driver, clock.epoch, 49, 49);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch);
  clock.at_ms(50);
  EXPECT_EQ(driver.next_due_ns(), std::nullopt);
  EXPECT_EQ(sink.records.size(), 1u);
}

TEST(RequestDriver, ClosedLoopDurationCountsFromTheFirstMeasuredRequestNotTheWarmUp) {
  const auto prompts = driver_prompts();
  FakeClock clock;
  DriverPlan plan = driver_plan(*prompts, clock);
  plan.per_prompt.warmup_requests = 1;
  plan.timing.measured_duration_ns = 100 * kDriverMs;
  plan.timing.cancel_at_duration_end = true;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  send_one(driver, clock.epoch, 0, 0);  // the warm-up request
  clock.at_ms(150);                     // longer than the duration, but it has not begun
  EXPECT_EQ(driver.next_due_ns(), clock.epoch);
  EXPECT_EQ(driver.cancel_at_ns(), bench::app::kNoLimitNs);
  send_one(driver, clock.epoch, 150, 150);  // the first measured request: 100 ms from here
  EXPECT_EQ(driver.cancel_at_ns(), clock.epoch + 250 * kDriverMs);
  clock.at_ms(250, -1);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch);
  clock.at_ms(250);
  EXPECT_EQ(driver.next_due_ns(), std::nullopt);
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_TRUE(sink.records[0].warmup);
  EXPECT_FALSE(sink.records[1].warmup);
}

TEST(RequestDriver, ATurnIsDueAfterThinkingItsSlotWaitCountsAndNoneStartsPastTheDuration) {
  FakeClock clock;
  DriverPlan plan;
  plan.target.urls = {"http://127.0.0.1:9/v1/completions"};
  plan.target.request.endpoint = bench::protocol::Endpoint::completions;
  plan.timing.epoch_ns = clock.epoch;
  plan.timing.clock_ns = [&clock] { return clock.now; };
  plan.timing.measured_duration_ns = 1'000 * kDriverMs;
  bench::app::SessionPlan sessions;
  sessions.end = 1;
  sessions.think_time.a_s = 0.5;
  sessions.turns_of = [](std::uint64_t) {
    return std::vector<bench::workload::UserTurn>(3, bench::workload::UserTurn{"hello", 1, 2});
  };
  plan.sessions = sessions;
  KeptRecords sink;
  SessionDriver driver(plan, sink);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch);  // the first turn is due when its session opens
  send_one(driver, clock.epoch, 0, 2);           // sent 2 ms in, ends at 3 ms
  clock.at_ms(503);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch + 503 * kDriverMs);  // its end + 0.5 s thinking
  send_one(driver, clock.epoch, 510, 511);  // no slot free until 7 ms after it was due
  clock.at_ms(1'002, -1);                   // the duration runs from the first turn's send
  EXPECT_EQ(driver.next_due_ns(), clock.epoch + 1'012 * kDriverMs);
  clock.at_ms(1'002);
  EXPECT_EQ(driver.next_due_ns(), std::nullopt);
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[0].intended_start_ns, 0);
  EXPECT_EQ(sink.records[0].start_ns, 2 * kDriverMs);
  EXPECT_EQ(sink.records[1].turn, 1);
  EXPECT_EQ(sink.records[1].intended_start_ns, 503 * kDriverMs);
  EXPECT_EQ(sink.records[1].slot_wait_ns, 7 * kDriverMs);
  EXPECT_EQ(sink.records[1].start_ns, 511 * kDriverMs);
}

// Random prompts; those of the requests in `missing` name an image file that is not there (one
// deleted after the run's start-up check).
class MissingImagePrompts final : public bench::workload::PromptSource {
 public:
  MissingImagePrompts(std::vector<std::uint64_t> missing, std::string path)
      : inner_(driver_prompts()), missing_(std::move(missing)), path_(std::move(path)) {}
  bench::workload::Prompt prompt(std::uint64_t index) const override {
    bench::workload::Prompt prompt = inner_->prompt(index);
    const std::uint64_t request = index & ((std::uint64_t{1} << bench::workload::kStreamBits) - 1);
    if (std::find(missing_.begin(), missing_.end(), request) != missing_.end()) {
      prompt.image_files = {path_};
    }
    return prompt;
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return false; }
  const std::string& summary() const override { return inner_->summary(); }

 private:
  std::unique_ptr<bench::workload::PromptSource> inner_;
  std::vector<std::uint64_t> missing_;
  std::string path_;
};

// A request whose body cannot be made fails, unsent, with a one-line reason redacted as any
// error message is; it is counted where it belongs (warm-up or measured), and the run goes on.
TEST(RequestDriver, ARequestWhoseBodyCannotBeMadeFailsUnsentAndCountsWhereItBelongs) {
  const std::string secret = "sk-unbuilt-0123456789abcdef";
  const MissingImagePrompts prompts({1, 3}, "/nonexistent/" + secret + "/a.png");
  const std::int64_t epoch = bench::now_ns();
  DriverPlan plan = driver_plan(prompts, epoch);
  plan.target.urls = {"http://127.0.0.1:9/v1/chat/completions"};
  plan.target.request.endpoint = bench::protocol::Endpoint::chat;
  plan.per_prompt.warmup_requests = 2;
  plan.target.traceparent = true;
  bench::util::Redactor redactor;
  redactor.add_secret(secret);
  plan.target.redactor = &redactor;
  KeptRecords sink;
  RequestDriver driver(plan, sink);
  for (int i = 0; i < 5; ++i) send_one(driver, epoch, i, i);
  ASSERT_EQ(sink.records.size(), 5u);
  EXPECT_EQ(driver.sent(), 5u);
  EXPECT_EQ(driver.measured_sent(), 3u);
  for (const std::size_t failed : {1, 3}) {
    const RequestRecord& record = sink.records[failed];
    EXPECT_EQ(record.index, failed);
    EXPECT_EQ(record.error, bench::metrics::ErrorClass::not_built);
    EXPECT_EQ(record.error_message.rfind("could not build the request: image file ", 0), 0u)
        << record.error_message;
    EXPECT_NE(record.error_message.find("a.png cannot be read"), std::string::npos);
    EXPECT_EQ(record.error_message.find(secret), std::string::npos) << record.error_message;
    EXPECT_EQ(record.error_message.find('\n'), std::string::npos);
    EXPECT_EQ(record.start_ns, static_cast<std::int64_t>(failed) * kDriverMs);
    EXPECT_EQ(record.end_ns, record.start_ns);
    EXPECT_EQ(record.requested_input_len, 8);
    EXPECT_EQ(record.requested_output_len, 2);
    EXPECT_EQ(record.http_status, 0);
    EXPECT_TRUE(record.trace_id.empty()) << "nothing was sent: no span";
  }
  EXPECT_TRUE(sink.records[1].warmup);
  EXPECT_FALSE(sink.records[3].warmup);
  for (const std::size_t sent : {0, 2, 4}) {
    EXPECT_EQ(sink.records[sent].error, bench::metrics::ErrorClass::none) << sent;
    EXPECT_FALSE(sink.records[sent].trace_id.empty());
  }
}

// A turn whose text cannot be made (its images failing) fails, unsent, and ends its session as
// a failed turn does; the next session takes its place.
TEST(RequestDriver, ATurnThatCannotBeMadeFailsUnsentAndEndsItsSession) {
  FakeClock clock;
  DriverPlan plan;
  plan.target.urls = {"http://127.0.0.1:9/v1/completions"};
  plan.target.request.endpoint = bench::protocol::Endpoint::completions;
  plan.timing.epoch_ns = clock.epoch;
  plan.timing.clock_ns = [&clock] { return clock.now; };
  bench::app::SessionPlan sessions;
  sessions.end = 2;
  sessions.turns_of = [](std::uint64_t) {
    return std::vector<bench::workload::UserTurn>(3, bench::workload::UserTurn{"hello", 1, 2});
  };
  int images_taken = 0;
  sessions.user_images = [&images_taken]() -> std::vector<std::string> {
    if (++images_taken == 2) throw std::runtime_error("image 7 could not be made");
    return {};
  };
  plan.sessions = sessions;
  KeptRecords sink;
  SessionDriver driver(plan, sink);
  send_one(driver, clock.epoch, 0, 0);  // session 0, turn 0: sent
  clock.at_ms(2);
  ASSERT_TRUE(driver.next_due_ns().has_value());
  send_one(driver, clock.epoch, 2, 2);  // session 0, turn 1: its images fail
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[1].session, 0);
  EXPECT_EQ(sink.records[1].turn, 1);
  EXPECT_EQ(sink.records[1].error, bench::metrics::ErrorClass::not_built);
  EXPECT_EQ(sink.records[1].error_message,
            "could not build the request: image 7 could not be made");
  ASSERT_EQ(sink.sessions.size(), 1u);
  EXPECT_TRUE(sink.sessions[0].failed);
  EXPECT_EQ(sink.sessions[0].turns_completed, 1);
  EXPECT_EQ(driver.next_due_ns(), clock.epoch + 2 * kDriverMs);  // session 1, at once
  send_one(driver, clock.epoch, 2, 2);
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_EQ(sink.records[2].session, 1);
  EXPECT_TRUE(sink.records[2].ok());
}

// Prompts that choose their own "stream", as a trace mixing streamed and non-streamed requests
// does: requests listed in `whole` are sent with "stream": false, the others as the run says.
class MixedStreamPrompts final : public bench::workload::PromptSource {
 public:
  explicit MixedStreamPrompts(std::vector<std::uint64_t> whole)
      : inner_(driver_prompts()), whole_(std::move(whole)) {}
  bench::workload::Prompt prompt(std::uint64_t index) const override {
    bench::workload::Prompt prompt = inner_->prompt(index);
    const std::uint64_t request = index & ((std::uint64_t{1} << bench::workload::kStreamBits) - 1);
    if (std::find(whole_.begin(), whole_.end(), request) != whole_.end()) prompt.stream = false;
    return prompt;
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return false; }
  const std::string& summary() const override { return inner_->summary(); }

 private:
  std::unique_ptr<bench::workload::PromptSource> inner_;
  std::vector<std::uint64_t> whole_;
};

// The engine's part for a request the driver sent: a one-token stream when its body asked for
// one, else one whole completion; returns the body it was sent.
std::string answer_as_asked(bench::app::PointDriver& driver, std::int64_t epoch_ns,
                            std::int64_t send_ms) {
  const bench::engine::TransferRequest request =
      driver.take_next(epoch_ns + send_ms * kDriverMs, epoch_ns + send_ms * kDriverMs);
  const bool streamed = nlohmann::json::parse(request.body).at("stream").get<bool>();
  const std::int64_t end_ns = epoch_ns + (send_ms + 1) * kDriverMs;
  if (streamed) {
    request.handler->on_headers(200, "text/event-stream");
    request.handler->on_body("data: {\"choices\":[{\"index\":0,\"text\":\"hi\"}]}\n\n", end_ns);
    request.handler->on_body("data: [DONE]\n\n", end_ns);
  } else {
    // A whole body has no first token: --ttft-timeout does not wait for one.
    EXPECT_TRUE(request.handler->first_token_seen());
    request.handler->on_headers(200, "application/json");
    request.handler->on_body(R"({"choices":[{"index":0,"text":" a b","finish_reason":"length"}],)"
                             R"("usage":{"prompt_tokens":8,"completion_tokens":2}})",
                             end_ns);
  }
  bench::engine::TransferEnd end;
  end.end_ns = end_ns;
  request.handler->on_end(end);
  return request.body;
}

TEST(RequestDriver, EachRequestIsSentAndReadStreamedOrNotAsItsPromptOrTheRunSays) {
  const MixedStreamPrompts prompts({1, 2});
  const std::int64_t epoch = bench::now_ns();
  KeptRecords sink;
  RequestDriver driver(driver_plan(prompts, epoch), sink);
  std::vector<std::string> bodies;
  for (int i = 0; i < 4; ++i) bodies.push_back(answer_as_asked(driver, epoch, i));
  ASSERT_EQ(sink.records.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const bool whole = i == 1 || i == 2;
    const RequestRecord& record = sink.records[i];
    const nlohmann::json body = nlohmann::json::parse(bodies[i]);
    EXPECT_EQ(body["stream"], !whole) << i;
    EXPECT_EQ(body.contains("stream_options"), !whole) << i;
    EXPECT_EQ(record.streamed, !whole) << i;
    EXPECT_TRUE(record.ok()) << i << ": " << record.error_message;
    EXPECT_EQ(record.first_token_ns >= 0, !whole) << i;
    EXPECT_EQ(record.completion_tokens, whole ? 2 : 1) << i;
  }
  // Run-wide (--no-stream): every request whose prompt does not say otherwise.
  DriverPlan plan = driver_plan(prompts, epoch);
  plan.target.request.stream = false;
  KeptRecords whole_sink;
  RequestDriver whole_driver(plan, whole_sink);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(nlohmann::json::parse(answer_as_asked(whole_driver, epoch, i))["stream"], false);
  }
  ASSERT_EQ(whole_sink.records.size(), 2u);
  EXPECT_FALSE(whole_sink.records[0].streamed);
  EXPECT_FALSE(whole_sink.records[1].streamed);
}

}  // namespace
