#include "connection_watch.hpp"

#include <algorithm>

namespace bench::engine {

void ConnectionWatch::response_ended(int fd, std::int64_t end_ns) {
  if (fd < 0) return;
  const auto index = static_cast<std::size_t>(fd);
  if (index >= idle_since_ns_.size()) idle_since_ns_.resize(index + 1, -1);
  idle_since_ns_[index] = end_ns;
}

void ConnectionWatch::reused_cleanly() {
  streak_ = 0;
  streak_idle_ns_ = 0;
}

void ConnectionWatch::closed(int fd, bool by_server, std::int64_t now_ns) {
  if (fd < 0) return;
  const auto index = static_cast<std::size_t>(fd);
  if (index >= idle_since_ns_.size()) return;  // never carried a response
  const std::int64_t idle_since_ns = idle_since_ns_[index];
  idle_since_ns_[index] = -1;  // the fd number may come back as another connection
  // curl's own closes (a retired idle connection, a stopped transfer) say nothing of the server.
  if (!by_server || idle_since_ns < 0) return;
  const std::int64_t idle_ns = now_ns - idle_since_ns;
  // A close long after the response is an idle timeout doing its job: no evidence either way.
  if (idle_ns >= kPromptCloseNs) return;
  ++prompt_closes_;
  ++streak_;
  streak_idle_ns_ = std::max(streak_idle_ns_, idle_ns);
  if (!reuse_stopped_ && streak_ >= kClosesToStopReuse) {
    reuse_stopped_ = true;
    stopping_close_idle_ns_ = streak_idle_ns_;
  }
}

}  // namespace bench::engine
