#include "bench/engine/fetch.hpp"

#include <optional>

#include "bench/util/clock.hpp"

namespace bench::engine {

namespace {

class CollectingHandler final : public TransferHandler {
 public:
  CollectingHandler(FetchResult& result, std::size_t max_body_bytes)
      : result_(result), max_body_bytes_(max_body_bytes) {}
  void on_headers(long http_status, std::string_view content_type) override {
    result_.http_status = http_status;
    result_.content_type = content_type;
  }
  bool on_body(std::string_view bytes, std::int64_t) override {
    body_seen_ = true;
    if (result_.body.size() + bytes.size() > max_body_bytes_) return false;
    result_.body.append(bytes);
    return true;
  }
  void on_end(const TransferEnd& end) override { result_.end = end; }
  // A whole exchange has no tokens: its first byte is what the engine's TTFT limit waits for,
  // so that limit bounds the silence before an answer (app/server/startup_fetch.hpp).
  bool first_token_seen() const override { return body_seen_; }

 private:
  FetchResult& result_;
  std::size_t max_body_bytes_;
  bool body_seen_ = false;
};

class SingleRequest final : public RequestSource {
 public:
  explicit SingleRequest(TransferRequest request) : request_(std::move(request)) {}
  std::optional<std::int64_t> next_due_ns() override {
    return taken_ ? std::nullopt : std::optional<std::int64_t>(0);
  }
  TransferRequest take_next(std::int64_t, std::int64_t) override {
    taken_ = true;
    return std::move(request_);
  }

 private:
  TransferRequest request_;
  bool taken_ = false;
};

}  // namespace

FetchResult fetch(const std::string& url, const std::vector<std::string>& headers,
                  const std::string& body, const EngineOptions& options, std::size_t max_body_bytes,
                  const StopFlag* stop) {
  FetchResult result;
  CollectingHandler handler(result, max_body_bytes);
  EngineOptions single = options;
  single.concurrency = 1;
  Engine engine(single);
  SingleRequest source(TransferRequest{url, body, &headers, &handler, {}, {}});
  engine.run(source, stop);
  return result;
}

}  // namespace bench::engine
