// A request its source could not make (TransferRequest::unsent) ends at once, through the same
// bookkeeping as a transfer: its handler hears the end the source gave, its concurrency slot is
// free again from that time, and the run goes on with the requests after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/sim/sim_server.hpp"
#include "quick_sim.hpp"

namespace unsent_test {

using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::engine::EngineStats;
using bench::engine::TransferEnd;
using bench::engine::TransferRequest;
using bench::metrics::ErrorClass;

// What the engine told one request, and when its slot became free for it.
struct EndHandler final : bench::engine::TransferHandler {
  void on_headers(long http_status, std::string_view) override { status = http_status; }
  bool on_body(std::string_view bytes, std::int64_t) override {
    body.append(bytes);
    return true;
  }
  void on_end(const TransferEnd& end) override {
    ++end_calls;
    error = end.error;
    message = end.message;
    end_ns = end.end_ns;
    --*in_flight;
  }

  int* in_flight = nullptr;  // the source's count of its requests not yet ended
  bool unsent = false;       // handed to the engine as unsent
  int end_calls = 0;
  long status = 0;
  std::string body;
  ErrorClass error = ErrorClass::none;
  std::string message;
  std::int64_t slot_free_ns = -1;  // as take_next heard it
  std::int64_t send_ns = -1;
  std::int64_t end_ns = -1;
};

// `count` streamed completions, all due at once; those `is_unsent` picks cannot be made.
class MixedSource final : public bench::engine::RequestSource {
 public:
  MixedSource(std::string url, int count, bool (*is_unsent)(int)) : url_(std::move(url)) {
    for (int i = 0; i < count; ++i) {
      handlers.push_back(std::make_unique<EndHandler>());
      handlers.back()->in_flight = &in_flight;
      handlers.back()->unsent = is_unsent(i);
    }
  }
  std::optional<std::int64_t> next_due_ns() override {
    if (next_ >= handlers.size()) return std::nullopt;
    return 0;
  }
  TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) override {
    EndHandler& handler = *handlers[next_];
    handler.slot_free_ns = slot_free_ns;
    handler.send_ns = send_ns;
    max_in_flight = std::max(max_in_flight, ++in_flight);
    TransferRequest request{url_, body_, &headers_, &handler, {}, {}};
    if (handler.unsent) {
      request.body.clear();
      request.unsent = TransferEnd{};
      request.unsent->error = ErrorClass::not_built;
      request.unsent->message = "request " + std::to_string(next_) + ": image file gone";
    }
    ++next_;
    return request;
  }

  std::vector<std::unique_ptr<EndHandler>> handlers;
  int in_flight = 0;
  int max_in_flight = 0;

 private:
  std::string url_;
  std::string body_ = R"({"model":"m","prompt":"hi","max_tokens":4,"stream":true})";
  std::vector<std::string> headers_ = {"Content-Type: application/json"};
  std::size_t next_ = 0;
};

EngineOptions with_concurrency(std::int64_t concurrency) {
  EngineOptions options;
  options.concurrency = concurrency;
  return options;
}

bool every_third(int i) { return i % 3 == 1; }
bool first_half(int i) { return i < 6; }
bool every_one(int) { return true; }

TEST(EngineUnsent, EndsEachUnsentRequestOnceWithItsOwnEndAndSendsTheRest) {
  bench::sim::SimServer server(bench::testing::quick_sim(5, 1));
  MixedSource source(server.base_url() + "/v1/completions", 24, every_third);
  Engine engine(with_concurrency(4));
  const EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.started, 24);
  EXPECT_EQ(stats.finished, 24);
  EXPECT_EQ(stats.unsent, 8);
  EXPECT_EQ(source.in_flight, 0);
  EXPECT_LE(source.max_in_flight, 4);
  for (std::size_t i = 0; i < source.handlers.size(); ++i) {
    const EndHandler& handler = *source.handlers[i];
    EXPECT_EQ(handler.end_calls, 1) << i;
    if (handler.unsent) {
      EXPECT_EQ(handler.error, ErrorClass::not_built) << i;
      EXPECT_EQ(handler.message, "request " + std::to_string(i) + ": image file gone");
      EXPECT_EQ(handler.status, 0) << "no response: it was never sent";
      EXPECT_GE(handler.end_ns, handler.send_ns);
    } else {
      EXPECT_EQ(handler.error, ErrorClass::none) << i;
      EXPECT_EQ(handler.status, 200) << i;
      EXPECT_NE(handler.body.find("data: [DONE]"), std::string::npos) << i;
    }
  }
}

// With one slot, each request after an unsent one takes the slot it freed, at the time it
// ended: the run neither waits on it nor loses the slot.
TEST(EngineUnsent, FreesItsSlotAtOnceForTheNextRequest) {
  bench::sim::SimServer server(bench::testing::quick_sim(5, 1));
  MixedSource source(server.base_url() + "/v1/completions", 10, first_half);
  Engine engine(with_concurrency(1));
  const EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.finished, 10);
  EXPECT_EQ(stats.unsent, 6);
  EXPECT_EQ(source.max_in_flight, 1);
  for (std::size_t i = 1; i < source.handlers.size(); ++i) {
    EXPECT_EQ(source.handlers[i]->slot_free_ns, source.handlers[i - 1]->end_ns) << i;
  }
  for (std::size_t i = 6; i < source.handlers.size(); ++i) {
    EXPECT_EQ(source.handlers[i]->error, ErrorClass::none) << i;
  }
}

TEST(EngineUnsent, ARunOfOnlyUnsentRequestsEndsWithoutAConnection) {
  bench::sim::SimServer server(bench::testing::quick_sim(5, 1));
  MixedSource source(server.base_url() + "/v1/completions", 100, every_one);
  Engine engine(with_concurrency(8));
  const EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.started, 100);
  EXPECT_EQ(stats.finished, 100);
  EXPECT_EQ(stats.unsent, 100);
  EXPECT_EQ(stats.connections_opened, 0);
  for (const auto& handler : source.handlers) {
    EXPECT_EQ(handler->end_calls, 1);
    EXPECT_EQ(handler->error, ErrorClass::not_built);
  }
}

}  // namespace unsent_test
