#pragma once
// The HTTP side of the live feed, served by cpp-httplib (Debian's libcpp-httplib-dev) on
// threads of its own: GET /metrics (Prometheus text) and GET /api/live (the JSON line) format
// the board's latest snapshot and nothing else, so a scraper, slow or fast or one that never
// reads, touches no event loop and no figure.
#include <memory>
#include <string>
#include <thread>
#include <variant>

#include "bench/live/snapshot.hpp"

namespace httplib {
class Server;
}

namespace bench::live {

class Listener {
 public:
  /// Binds host:port (port 0: the kernel picks one) and starts serving `board`, which outlives
  /// the listener. The error, as a message naming the address, when it cannot bind (a port in
  /// use, an address not of this machine).
  static std::variant<std::unique_ptr<Listener>, std::string> open(const std::string& host,
                                                                   int port,
                                                                   const SnapshotBoard& board);
  ~Listener();  // stops serving: open connections are closed
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  int port() const { return port_; }
  /// "http://127.0.0.1:9464" (an IPv6 host in brackets).
  std::string base_url() const;

 private:
  Listener(std::unique_ptr<httplib::Server> server, std::string host, int port);

  std::unique_ptr<httplib::Server> server_;
  std::string host_;
  int port_;
  std::thread thread_;
};

}  // namespace bench::live
