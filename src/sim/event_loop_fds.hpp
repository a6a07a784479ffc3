#pragma once
// A server's listening socket and the descriptors its event loop waits on: the simulator's and
// the replay server's loops are the same shape (server_impl.hpp, replay_server.cpp).
#include <cstdint>
#include <string>

#include "bench/util/unique_fd.hpp"

namespace bench::sim {

struct EventLoopFds {
  UniqueFd listen;         // the listening TCP socket
  std::uint16_t port = 0;  // its port (the one the kernel chose for 0)
  UniqueFd epoll;          // waits on the listening socket, the timer and the wake-up
  UniqueFd timer;          // timerfd (CLOCK_MONOTONIC): the next scheduled send
  UniqueFd wake;           // eventfd: another thread asks the loop to look (stop, new work)
};

/// Listens on `host`:`port` (an IPv4 address; port 0 for any free one) and opens the loop's
/// three, each watched for input beside the listening socket. Throws std::runtime_error for a
/// host that is no IPv4 address, util::system_error when a call fails.
EventLoopFds open_event_loop(const std::string& host, std::uint16_t port);

}  // namespace bench::sim
