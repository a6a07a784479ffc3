#include "event_loop_fds.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

#include <optional>
#include <stdexcept>
#include <utility>

#include "bench/util/listen_socket.hpp"

namespace bench::sim {

EventLoopFds open_event_loop(const std::string& host, std::uint16_t port) {
  const std::optional<sockaddr_in> address = util::ipv4_address(host, port);
  if (!address) throw std::runtime_error("'" + host + "' is not an IPv4 address");
  util::ListeningSocket listening = util::listen_tcp(*address);
  EventLoopFds fds;
  fds.listen = std::move(listening.fd);
  fds.port = listening.port;
  fds.epoll.reset(::epoll_create1(EPOLL_CLOEXEC));
  fds.timer.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  fds.wake.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!fds.epoll.valid() || !fds.timer.valid() || !fds.wake.valid()) {
    throw util::system_error("epoll setup");
  }
  for (int fd : {fds.listen.get(), fds.timer.get(), fds.wake.get()}) {
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
