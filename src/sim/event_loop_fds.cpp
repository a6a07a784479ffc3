#include "event_loop_fds.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

#include "bench/util/listen_socket.hpp"

namespace bench::sim {

EventLoopFds open_event_loop(int listen_fd) {
  EventLoopFds fds;
  fds.epoll.reset(::epoll_create1(EPOLL_CLOEXEC));
  fds.timer.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  fds.wake.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!fds.epoll.valid() || !fds.timer.valid() || !fds.wake.valid()) {
    throw util::system_error("epoll setup");
  }
  for (int fd : {listen_fd, fds.timer.get(), fds.wake.get()}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (::epoll_ctl(fds.epoll.get(), EPOLL_CTL_ADD, fd, &event) != 0) {
      throw util::system_error("epoll_ctl");
    }
  }
  return fds;
}

}  // namespace bench::sim
