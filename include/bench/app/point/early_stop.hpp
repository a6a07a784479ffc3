#pragma once
// A run that cannot succeed stops early. When the first requests to end all failed in a way no
// later request can fix (the server refused the credentials, or does not know the model), the
// rest are not sent and the run ends with one line saying what to check. OpenAI-compatible
// servers refuse both before any generation, so sending the other 999 teaches nothing.
//
// This is the app's knowledge of OpenAI-compatible servers: the engine only sees the drivers
// stop offering requests.
#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "bench/metrics/request_record.hpp"

namespace bench::app {

/// How many requests must end, all failed for good, before a run stops early: enough that one
/// unlucky answer does not end a run, few enough that a wrong key costs a handful of requests
/// (plus those already in flight).
inline constexpr std::size_t kEarlyStopRequests = 8;

/// "HTTP 401 (unauthorized): <server message>; check ..." when `http_status` with that message
/// means no request of the run can succeed: 401 or 403 (the credentials), or 404 whose message
/// says the model does not exist (vLLM: "The model `x` does not exist."; Ollama: "model 'x' not
/// found"). nullopt for any other answer.
std::optional<std::string> describe_refusal(long http_status, std::string_view server_message);

/// describe_refusal for a finished request (its error message is "HTTP <status>: <message>").
std::optional<std::string> describe_refusal(const metrics::RequestRecord& record);

class EarlyStop {
 public:
  /// Watches the first `first_requests` requests to end (warm-up ones too; cancelled ones do
  /// not count).
  explicit EarlyStop(std::size_t first_requests) : first_requests_(first_requests) {}

  /// Notes a request that has ended. Any client thread; lock-free once the first requests
  /// have ended.
  void observe(const metrics::RequestRecord& record);
  /// Whether the first requests all failed for good: no request should start any more.
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  /// The line saying why, naming the status and what to check; empty unless stopping().
  std::string reason() const;

 private:
  std::size_t first_requests_;
  std::atomic<std::size_t> ended_{0};
  std::atomic<std::size_t> refused_{0};
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::string first_refusal_;  // describe_refusal of the first refused request
};

}  // namespace bench::app
