#include "bench/util/listen_socket.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace bench::util {

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

std::optional<sockaddr_in> ipv4_address(const std::string& host, std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) return std::nullopt;
  return address;
}

ListeningSocket listen_tcp(const sockaddr_in& address) {
  ListeningSocket out;
  out.fd.reset(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!out.fd.valid()) throw system_error("socket");
  const int one = 1;
  ::setsockopt(out.fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in bound = address;
  if (::bind(out.fd.get(), reinterpret_cast<const sockaddr*>(&bound), sizeof bound) != 0) {
    char host[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &bound.sin_addr, host, sizeof host);
    throw system_error(std::string("cannot listen on ") + host + ":" +
                       std::to_string(ntohs(bound.sin_port)));
  }
  if (::listen(out.fd.get(), SOMAXCONN) != 0) throw system_error("listen");
  socklen_t length = sizeof bound;
  ::getsockname(out.fd.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  out.port = ntohs(bound.sin_port);
  return out;
}

}  // namespace bench::util
