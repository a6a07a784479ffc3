#pragma once
// A TCP socket listening on loopback or any IPv4 address: what the simulator, the replay server
// and `bench record` each open before their event loop.
#include <netinet/in.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "bench/util/unique_fd.hpp"

namespace bench::util {

/// `what`: the failed call and strerror(errno), as one line.
std::runtime_error system_error(const std::string& what);

/// `host` (IPv4 text) and `port` as an address; nullopt when host is not an IPv4 address.
std::optional<sockaddr_in> ipv4_address(const std::string& host, std::uint16_t port);

struct ListeningSocket {
  UniqueFd fd;
  std::uint16_t port = 0;  // the one bound: port 0 asks for any free one
};

/// A non-blocking, close-on-exec socket with SO_REUSEADDR listening on `address`. Throws
/// system_error ("cannot listen on HOST:PORT: ...") when it cannot.
ListeningSocket listen_tcp(const sockaddr_in& address);

}  // namespace bench::util
