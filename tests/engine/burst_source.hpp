#pragma once
// A burst of streamed requests whose handlers remember when each was sent and how and when it
// ended: for the tests of the engine's deadlines.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/util/clock.hpp"

namespace bench_test {

using bench::engine::TransferEnd;
using bench::engine::TransferRequest;
using bench::metrics::ErrorClass;

// Remembers when its request was sent and how and when it ended. Any body byte counts as the
// first token: the sim's first chunk is its first text.
class TimedHandler final : public bench::engine::TransferHandler {
 public:
  void on_headers(long, std::string_view) override {}
  bool on_body(std::string_view, std::int64_t) override {
    got_body = true;
    return true;
  }
  void on_end(const TransferEnd& end) override {
    error = end.error;
    end_ns = end.end_ns;
    connection_retries = end.connection_retries;
    // Busy, as a real handler is while it records the request.
    const std::int64_t busy_until_ns = bench::now_ns() + end_cost_ns;
    while (bench::now_ns() < busy_until_ns) {
    }
  }
  bool first_token_seen() const override { return got_body; }

  bool got_body = false;
  std::int64_t end_cost_ns = 0;  // how long on_end keeps the loop busy
  std::int64_t send_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t connection_retries = 0;  // resends on a new connection (TransferEnd's)
  ErrorClass error = ErrorClass::none;
};

class BurstSource final : public bench::engine::RequestSource {
 public:
  // All `count` requests due at once, or one every `spacing_ns` from `epoch_ns` (0: from the
  // first call).
  BurstSource(std::string url, int count, std::int64_t spacing_ns = 0, std::int64_t epoch_ns = 0)
      : url_(std::move(url)), spacing_ns_(spacing_ns), epoch_ns_(epoch_ns) {
    for (int i = 0; i < count; ++i) handlers.push_back(std::make_unique<TimedHandler>());
  }
  std::optional<std::int64_t> next_due_ns() override {
    if (next_ >= handlers.size()) return std::nullopt;
    if (spacing_ns_ == 0) return 0;
    if (epoch_ns_ == 0) epoch_ns_ = bench::now_ns();
    return due_ns(next_);
  }
  // When request `index` was due.
  std::int64_t due_ns(std::size_t index) const {
    return epoch_ns_ + static_cast<std::int64_t>(index) * spacing_ns_;
  }
  TransferRequest take_next(std::int64_t, std::int64_t send_ns) override {
    handlers[next_]->send_ns = send_ns;
    return TransferRequest{url_, body_, &headers_, handlers[next_++].get(), {}, {}};
  }

  std::vector<std::unique_ptr<TimedHandler>> handlers;

 private:
  std::string url_;
  std::string body_ = R"({"model":"m","prompt":"hi","max_tokens":40,"stream":true})";
  std::vector<std::string> headers_ = {"Content-Type: application/json"};
  std::int64_t spacing_ns_;
  std::int64_t epoch_ns_;
  std::size_t next_ = 0;
};

// How late each handler's end came after `limit_ms` from its send, in ms, sorted.
inline std::vector<double> lateness_ms(const BurstSource& source, std::int64_t limit_ms) {
  std::vector<double> late;
  for (const auto& handler : source.handlers) {
    late.push_back(
        static_cast<double>(handler->end_ns - handler->send_ns - limit_ms * bench::kNsPerMs) /
        bench::kNsPerMs);
  }
  std::sort(late.begin(), late.end());
  return late;
}

}  // namespace bench_test
