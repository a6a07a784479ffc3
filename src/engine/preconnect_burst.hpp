#pragma once
// The requests that open a run's connections ahead of it (Engine::preconnect): `count` GETs of
// one cheap URL, all due at once, whose bodies are dropped. Only whether each one got through
// matters: its connection is what the run keeps. Bounded whatever the server does: a body past
// kMaxBodyBytes is cut (that connection is lost, the run opens another), and the whole burst
// is cancelled at `cancel_at_ns`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/engine.hpp"

namespace bench::engine {

class PreconnectBurst final : public RequestSource {
 public:
  PreconnectBurst(std::string url, const std::vector<std::string>* headers, std::int64_t count,
                  std::int64_t cancel_at_ns)
      : url_(std::move(url)),
        headers_(headers),
        handlers_(static_cast<std::size_t>(count)),
        cancel_at_ns_(cancel_at_ns) {
    for (Handler& handler : handlers_) handler.failed = &failed_;
  }

  std::optional<std::int64_t> next_due_ns() override {
    if (next_ >= handlers_.size()) return std::nullopt;
    return 0;
  }
  TransferRequest take_next(std::int64_t, std::int64_t) override {
    return TransferRequest{url_, std::string(), headers_, &handlers_[next_++], {}, {}};
  }

  std::int64_t cancel_at_ns() const override { return cancel_at_ns_; }
  std::int64_t failed() const { return failed_; }

 private:
  struct Handler final : TransferHandler {
    void on_headers(long, std::string_view) override {}
    bool on_body(std::string_view bytes, std::int64_t) override {
      body_bytes += bytes.size();
      return body_bytes <= kMaxBodyBytes;
    }
    void on_end(const TransferEnd& end) override {
      if (end.error != metrics::ErrorClass::none) ++*failed;
    }
    static constexpr std::size_t kMaxBodyBytes = 1 << 20;  // a model list is a few KiB
    std::size_t body_bytes = 0;
    std::int64_t* failed = nullptr;
  };

  std::string url_;
  const std::vector<std::string>* headers_;
  std::vector<Handler> handlers_;
  std::size_t next_ = 0;
  std::int64_t cancel_at_ns_;
  std::int64_t failed_ = 0;
};

}  // namespace bench::engine
