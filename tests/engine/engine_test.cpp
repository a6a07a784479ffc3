// The transport alone, against the embedded server over loopback: closed-loop concurrency,
// connection reuse, one end per transfer, read stamps, failures and cancellation.
#include "bench/engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/engine/curl_handles.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/open_file_limit.hpp"
#include "curl_once.hpp"
#include "quick_sim.hpp"
#include "wait_count.hpp"

namespace {

using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::engine::TransferEnd;
using bench::engine::TransferHandler;
using bench::engine::TransferRequest;
using bench::metrics::ErrorClass;
using bench::testing::quick_sim;

// Counts what the engine tells one transfer, and the concurrency it sees across transfers.
struct Tally {
  int in_flight = 0;
  int max_in_flight = 0;
  int ended = 0;
  std::vector<ErrorClass> errors;
};

class RecordingHandler final : public TransferHandler {
 public:
  explicit RecordingHandler(Tally& tally) : tally_(tally) {}
  void on_headers(long http_status, std::string_view) override {
    ++headers_calls;
    status = http_status;
  }
  bool on_body(std::string_view bytes, std::int64_t arrival_ns) override {
    if (arrival_ns < last_arrival_ns) stamps_monotonic = false;
    last_arrival_ns = arrival_ns;
    body.append(bytes);
    return abort_after_bytes < 0 || static_cast<long>(body.size()) < abort_after_bytes;
  }
  void on_end(const TransferEnd& end) override {
    ++end_calls;
    error = end.error;
    response_start_ns = end.response_start_ns;
    end_ns = end.end_ns;
    --tally_.in_flight;
    ++tally_.ended;
    tally_.errors.push_back(end.error);
  }

  int headers_calls = 0;
  int end_calls = 0;
  long status = 0;
  std::string body;
  ErrorClass error = ErrorClass::none;
  std::int64_t last_arrival_ns = 0;
  bool stamps_monotonic = true;
  long abort_after_bytes = -1;
  std::int64_t response_start_ns = -2;  // as on_end said
  std::int64_t end_ns = 0;

 private:
  Tally& tally_;
};

// Sends `count` streamed completion requests as fast as the concurrency allows.
class StreamingSource final : public bench::engine::RequestSource {
 public:
  StreamingSource(std::string url, int count, Tally& tally) : url_(std::move(url)), tally_(tally) {
    for (int i = 0; i < count; ++i) handlers.push_back(std::make_unique<RecordingHandler>(tally));
  }
  std::optional<std::int64_t> next_due_ns() override {
    if (next_ >= handlers.size()) return std::nullopt;
    return 0;
  }
  TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) override {
    EXPECT_LE(slot_free_ns, send_ns);
    ++tally_.in_flight;
    tally_.max_in_flight = std::max(tally_.max_in_flight, tally_.in_flight);
    taken.add();
    return TransferRequest{url_, body, &headers_, handlers[next_++].get(), {}, {}};
  }

  std::int64_t cancel_at_ns() const override { return cancel_at; }

  std::vector<std::unique_ptr<RecordingHandler>> handlers;
  std::int64_t cancel_at = INT64_MAX;
  bench::testing::WaitCount taken;  // requests handed to the engine, for another thread to wait on
  std::string body = R"({"model":"m","prompt":"hi there","max_tokens":8,"stream":true,)"
                     R"("stream_options":{"include_usage":true}})";

 private:
  std::string url_;
  Tally& tally_;
  std::vector<std::string> headers_ = {"Content-Type: application/json"};
  std::size_t next_ = 0;
};

EngineOptions with(std::int64_t concurrency, std::int64_t grace_ms = 0,
                   std::int64_t request_timeout_ms = 0) {
  EngineOptions options;
  options.concurrency = concurrency;
  options.grace_ms = grace_ms;
  options.request_timeout_ms = request_timeout_ms;
  return options;
}

TEST(Engine, KeepsExactlyNRequestsInFlightAndEndsEachTransferOnce) {
  bench::sim::SimServer server(quick_sim(20, 2));
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 64, tally);
  Engine engine(with(8));
  const bench::engine::EngineStats stats = engine.run(source);
  EXPECT_EQ(tally.max_in_flight, 8);
  EXPECT_EQ(tally.ended, 64);
  EXPECT_EQ(stats.started, 64);
  EXPECT_EQ(stats.finished, 64);
  for (const auto& handler : source.handlers) {
    EXPECT_EQ(handler->end_calls, 1);
    EXPECT_EQ(handler->headers_calls, 1);
    EXPECT_EQ(handler->status, 200);
    EXPECT_EQ(handler->error, ErrorClass::none);
    EXPECT_TRUE(handler->stamps_monotonic);
    EXPECT_NE(handler->body.find("data: [DONE]"), std::string::npos);
  }
}

TEST(Engine, ReusesKeepAliveConnectionsInsteadOfOpeningOnePerRequest) {
  bench::sim::SimServer server(quick_sim(20, 2));
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 60, tally);
  Engine engine(with(4));
  const bench::engine::EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.finished, 60);
  EXPECT_LE(stats.connections_opened, 8);  // 4 slots; a little slack for a server-side close
}

TEST(Engine, StampsBodyBytesWithTheTimeOfTheirRead) {
  bench::sim::SimServer server(quick_sim(20, 2));
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 1, tally);
  Engine engine(with(1));
  const std::int64_t before = bench::now_ns();
  engine.run(source);
  const std::int64_t after = bench::now_ns();
  const RecordingHandler& handler = *source.handlers[0];
  EXPECT_GT(handler.last_arrival_ns, before);
  EXPECT_LT(handler.last_arrival_ns, after);
}

TEST(Engine, SaysWhenTheResponsesHeadersCameBeforeItsBody) {
  // The simulator sends its headers on admission and the first token 20 ms later.
  bench::sim::SimServer server(quick_sim(20, 2));
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 1, tally);
  Engine engine(with(1));
  const std::int64_t before = bench::now_ns();
  engine.run(source);
  const RecordingHandler& handler = *source.handlers[0];
  EXPECT_GT(handler.response_start_ns, 0);
  EXPECT_LT(handler.response_start_ns, handler.end_ns - before);
}

TEST(Engine, ClassifiesARefusedConnection) {
  Tally tally;
  StreamingSource source("http://127.0.0.1:1/v1/completions", 3, tally);
  Engine engine(with(2));
  engine.run(source);
  EXPECT_EQ(tally.ended, 3);
  for (const auto& handler : source.handlers) {
    EXPECT_EQ(handler->error, ErrorClass::connect_refused);
    EXPECT_EQ(handler->end_calls, 1);
  }
}

TEST(Engine, AbortsATransferWhenTheHandlerSaysSo) {
  bench::sim::SimServer server(quick_sim(20, 2));
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 2, tally);
  source.handlers[0]->abort_after_bytes = 1;
  Engine engine(with(2));
  engine.run(source);
  EXPECT_EQ(source.handlers[0]->end_calls, 1);
  EXPECT_NE(source.handlers[0]->error, ErrorClass::none);
  EXPECT_EQ(source.handlers[1]->error, ErrorClass::none);
}

TEST(Engine, StopCancelsInFlightTransfersAfterTheGracePeriod) {
  bench::sim::SimOptions slow = quick_sim(20, 2);
  slow.ttft_ms = 5000;  // nothing finishes before the stop
  bench::sim::SimServer server(slow);
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 10, tally);
  Engine engine(with(4, 50));
  bench::StopFlag stop;
  std::thread stopper([&] {
    // The four the concurrency allows are in flight (their first token is 5 s away).
    EXPECT_TRUE(source.taken.wait_for_at_least(4, std::chrono::seconds(10)));
    stop.request();
  });
  const auto start = std::chrono::steady_clock::now();
  const bench::engine::EngineStats stats = engine.run(source, &stop);
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_TRUE(stats.stopped);
  EXPECT_EQ(stats.started, 4);  // no new request after the stop
  EXPECT_EQ(stats.cancelled, 4);
  EXPECT_EQ(tally.ended, 4);
  EXPECT_EQ(std::count(tally.errors.begin(), tally.errors.end(), ErrorClass::cancelled), 4);
}

// A forced quit (a later second signal) ends the grace period at once: in-flight requests are
// cancelled and the run ends, though the grace would have waited ten minutes.
TEST(Engine, AForcedStopCancelsInFlightTransfersWithoutTheGrace) {
  bench::sim::SimOptions slow = quick_sim(20, 2);
  slow.ttft_ms = 600'000;  // nothing finishes on its own
  bench::sim::SimServer server(slow);
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 10, tally);
  Engine engine(with(4, 600'000));
  bench::StopFlag stop;
  std::thread stopper([&] {
    EXPECT_TRUE(source.taken.wait_for_at_least(4, std::chrono::seconds(10)));
    stop.request();
    stop.request(/*force=*/true);
  });
  const bench::engine::EngineStats stats = engine.run(source, &stop);
  stopper.join();
  EXPECT_TRUE(stats.stopped);
  EXPECT_EQ(stats.started, 4);
  EXPECT_EQ(stats.cancelled, 4);
  EXPECT_EQ(std::count(tally.errors.begin(), tally.errors.end(), ErrorClass::cancelled), 4);
}

TEST(Engine, RequestTimeoutEndsAStalledRequest) {
  bench::sim::SimOptions slow = quick_sim(20, 2);
  slow.ttft_ms = 5000;
  bench::sim::SimServer server(slow);
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 1, tally);
  Engine engine(with(1, 0, 200));
  engine.run(source);
  EXPECT_EQ(source.handlers[0]->error, ErrorClass::request_timeout);
}

TEST(Fetch, GetsTheModelList) {
  bench::sim::SimServer server(quick_sim(20, 2));
  const bench::engine::FetchResult result =
      bench::engine::fetch(server.base_url() + "/v1/models", {}, "", EngineOptions{});
  EXPECT_EQ(result.http_status, 200);
  EXPECT_NE(result.body.find("bench-sim"), std::string::npos);
  EXPECT_EQ(result.end.error, ErrorClass::none);
}

TEST(OpenFileLimit, IsRaisedToWhatTheConcurrencyNeeds) {
  const std::int64_t limit = bench::raise_open_file_limit(2048);
  EXPECT_GE(limit, 1024);  // the hard limit may be lower than asked, never below the default
}

}  // namespace

namespace {

TEST(Engine, AHardStopTimeCancelsEverythingInFlightAndStartsNothingNew) {
  bench::sim::SimOptions slow = quick_sim(20, 2);
  slow.ttft_ms = 5000;
  bench::sim::SimServer server(slow);
  Tally tally;
  StreamingSource source(server.base_url() + "/v1/completions", 10, tally);
  Engine engine(with(4, /*grace_ms=*/5000));  // the grace period does not apply to a hard stop
  const auto start = std::chrono::steady_clock::now();
  source.cancel_at = bench::now_ns() + 300 * bench::kNsPerMs;
  const bench::engine::EngineStats stats = engine.run(source);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(290));
  EXPECT_LT(took, std::chrono::seconds(2));
  EXPECT_TRUE(stats.stopped);
  EXPECT_EQ(stats.started, 4);
  EXPECT_EQ(stats.cancelled, 4);
  EXPECT_EQ(std::count(tally.errors.begin(), tally.errors.end(), ErrorClass::cancelled), 4);
}

}  // namespace
