#include "bench/app/point/unreachable_watch.hpp"

#include <fmt/format.h>

#include "bench/engine/connect_backoff.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

void UnreachableWatch::observe(const metrics::RequestRecord& record, std::string_view url) {
  if (limit_ns_ <= 0 || record.cancelled()) return;
  if (engine::is_connection_failure(record.error)) {
    const std::lock_guard lock(mutex_);
    if (since_ns_.load(std::memory_order_relaxed) == kNone) {
      url_ = util::url_without_credentials(url);
      since_ns_.store(record.start_ns, std::memory_order_relaxed);
    }
    return;
  }
  if (record.http_status <= 0 || since_ns_.load(std::memory_order_relaxed) == kNone) return;
  // When the server answered: its status line's time, or the end when that is not known.
  const std::int64_t answered_ns = record.response_headers_ns >= 0
                                       ? record.start_ns + record.response_headers_ns
                                       : record.end_ns;
  const std::lock_guard lock(mutex_);
  if (!given_up() && answered_ns >= since_ns_.load(std::memory_order_relaxed)) {
    since_ns_.store(kNone, std::memory_order_relaxed);
  }
}

std::int64_t UnreachableWatch::give_up_at_ns(std::int64_t now_ns) {
  if (given_up()) {
    const std::lock_guard lock(mutex_);
    return gave_up_since_ns_ + limit_ns_;
  }
  const std::int64_t since_ns = since_ns_.load(std::memory_order_relaxed);
  if (since_ns == kNone) return INT64_MAX;
  if (now_ns < since_ns + limit_ns_) return since_ns + limit_ns_;
  const std::lock_guard lock(mutex_);
  if (!given_up()) {
    gave_up_since_ns_ = since_ns;
    given_up_.store(true, std::memory_order_relaxed);
  }
  return gave_up_since_ns_ + limit_ns_;
}

std::string UnreachableWatch::reason() const {
  if (!given_up()) return "";
  const std::lock_guard lock(mutex_);
  return fmt::format(
      "server unreachable since t={:.1f} s: no connection to {} could be made for {:g} s "
      "(--unreachable-timeout); the run stopped, its results so far kept",
      ns_to_s(gave_up_since_ns_), url_, ns_to_s(limit_ns_));
}

}  // namespace bench::app
