#pragma once
// A server that cannot be reached ends the run. Once every request to end has failed to connect
// (refused, timed out, no such host) for --unreachable-timeout, with no answer from the server
// since the first of them, no request starts any more, those in flight are cancelled, and the
// run ends with one line naming the URL and since when: its results so far are kept, exit 3.
// Without it, a server that dies mid-run would leave the loop failing request after request
// until --duration or --num-prompts ran out, each failure no news.
//
// Shared by a point's client threads (like EarlyStop): observe() is called on every record, so
// a reachable server costs it one relaxed load.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "bench/metrics/request_record.hpp"

namespace bench::app {

class UnreachableWatch {
 public:
  /// `limit_ns`: how long the outage may last; 0 = never give up.
  explicit UnreachableWatch(std::int64_t limit_ns) : limit_ns_(limit_ns) {}

  /// Notes a request that has ended (its times epoch-relative, sent to `url`): one that could
  /// not connect starts the outage at its send, unless one has begun; one the server answered
  /// (a status line came) ends an outage that began before that answer. Cancelled requests and
  /// other failures say nothing about reachability.
  void observe(const metrics::RequestRecord& record, std::string_view url);

  /// The epoch-relative ns at which the run gives up: the outage's start plus the limit;
  /// INT64_MAX while the server is reachable (or with no limit). Asked at `now_ns` at or past
  /// it, the watch gives up for good: the outage cannot end after that.
  std::int64_t give_up_at_ns(std::int64_t now_ns);

  bool given_up() const { return given_up_.load(std::memory_order_relaxed); }

  /// "server unreachable since t=1.5 s: ..." naming the URL (without credentials), the limit
  /// and the flag; empty unless given_up().
  std::string reason() const;

 private:
  static constexpr std::int64_t kNone = INT64_MAX;

  std::int64_t limit_ns_;
  std::atomic<std::int64_t> since_ns_{kNone};  // the outage's first failed send; kNone: none
  std::atomic<bool> given_up_{false};
  mutable std::mutex mutex_;
  std::string url_;                    // the first failed request's URL, without credentials
  std::int64_t gave_up_since_ns_ = 0;  // the outage the run gave up on
};

}  // namespace bench::app
