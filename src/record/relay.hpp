#pragma once
// The recording proxy's event loop. Private to src/record.
//
// Why a hand-written relay and not a library: what is recorded is the socket's own behaviour,
// the time each read() of the server's bytes returned and whether the connection ended with a
// FIN (read() returns 0) or an RST (ECONNRESET), and after how many microseconds. An HTTP
// library (libcurl, cpp-httplib, Boost.Beast) parses and re-frames the stream, buffers it, and
// hides how the peer closed, so it would record its own behaviour instead of the server's. The
// relay forwards every read at once, byte for byte, and only frames messages to know which
// exchange a byte belongs to (http_framing.hpp).
#include <sys/epoll.h>

#include <netinet/in.h>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/record/http_framing.hpp"
#include "bench/util/stop_flag.hpp"
#include "bench/util/unique_fd.hpp"
#include "bench/wire/recording.hpp"
#include "exchange_writer.hpp"

namespace bench::record {

class Relay {
 public:
  /// Listens on `listen` (bound before return) and forwards to `upstream`. `session_headers`:
  /// the header names (lower case) whose value names a request's session, first found first.
  Relay(const sockaddr_in& listen, const sockaddr_in& upstream, ExchangeWriter& writer,
        std::vector<std::string> session_headers = {});
  std::uint16_t port() const { return port_; }
  /// Serves until `stop`; then hands every exchange whose response is complete to the writer.
  void run(const StopFlag& stop);

 private:
  struct Pending {
    wire::Exchange exchange;
    std::string session;            // its session header's value (Relayed::session)
    std::uint64_t request_end = 0;  // offset past its last byte in the client->server stream
    std::int64_t sent_ns = -1;      // when that byte was written to the server
    std::int64_t last_read_ns = 0;  // when the response's latest read arrived
    ResponseFramer framer;
    bool done = false;  // the response is complete
  };
  struct Session {
    std::uint64_t id = 0;
    UniqueFd client;
    UniqueFd upstream;
    bool connected = false;          // the connect() to the server completed
    std::string unframed;            // client bytes not yet framed into a request
    std::uint64_t framed_bytes = 0;  // client bytes framed so far
    std::string to_upstream;         // not yet written to the server
    std::uint64_t upstream_written = 0;
    std::string to_client;  // not yet written to the client
    bool close_client_when_flushed = false;
    std::deque<Pending> pending;  // oldest first
  };
  enum Role : std::uint64_t { kClient = 0, kUpstream = 1 };

  void accept_clients();
  void on_event(const epoll_event& event);
  void read_client(Session& session);
  void frame_requests(Session& session);
  void flush_upstream(Session& session);
  void read_upstream(Session& session);
  void attribute(Session& session, std::string_view bytes, std::int64_t at_ns);
  void on_upstream_closed(Session& session, wire::Close::How how, std::int64_t at_ns);
  void flush_client(Session& session);
  void finish_done(Session& session, bool drop_rest);
  void end_session(std::uint64_t id);
  void watch(Session& session, Role role, bool writable);

  UniqueFd listen_fd_;
  UniqueFd epoll_fd_;
  sockaddr_in upstream_{};
  std::uint16_t port_ = 0;
  ExchangeWriter& writer_;
  std::vector<std::string> session_headers_;
  std::uint64_t next_session_ = 1;
  std::uint64_t next_exchange_ = 1;
  std::unordered_map<std::uint64_t, std::unique_ptr<Session>> sessions_;
  std::deque<std::uint64_t> ended_;  // sessions to drop at the end of the loop turn
};

}  // namespace bench::record
