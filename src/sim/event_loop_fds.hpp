#pragma once
// The descriptors a server's event loop waits on, beside its listening socket: the simulator's
// and the replay server's loops are the same shape (server_impl.hpp, replay_server.cpp).
#include "bench/util/unique_fd.hpp"

namespace bench::sim {

struct EventLoopFds {
  UniqueFd epoll;  // waits on the listening socket, the timer and the wake-up
  UniqueFd timer;  // timerfd (CLOCK_MONOTONIC): the next scheduled send
  UniqueFd wake;   // eventfd: another thread asks the loop to look (stop, new work)
};

/// Opens the three, each watched for input beside `listen_fd`; throws util::system_error.
EventLoopFds open_event_loop(int listen_fd);

}  // namespace bench::sim
