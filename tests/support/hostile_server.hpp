#pragma once
// Test support: loopback TCP endpoints that misbehave on demand, for the failure paths the
// embedded simulator does not take (it always speaks valid HTTP and bounded SSE).
//   HostileServer     accepts, reads one HTTP request per connection, then runs a behaviour
//                     that may send anything (a 100 MiB line, endless headers, garbage), pause,
//                     close or reset.
//   ClosedPort        a port bound but never listening: a connect to it is refused (RST).
//   FullAcceptQueue   a listener that never accepts, its accept queue filled, so Linux drops
//                     every further SYN and a connect can only time out.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace bench::testing {

/// One accepted connection, as its behaviour sees it. Every call gives up (returns false) once
/// the peer has gone or the server is being destroyed, so no behaviour outlives its test.
class Exchange {
 public:
  Exchange(int fd, int stop_fd, std::atomic<std::int64_t>* max_bytes_sent)
      : fd_(fd), stop_fd_(stop_fd), max_bytes_sent_(max_bytes_sent) {}

  /// The request head and body as received ("" when the server was told not to read it).
  const std::string& request() const { return request_; }
  /// Waits for the next bytes the peer sends; "" when it closed or the server is stopping.
  std::string receive();
  /// Sends every byte; false when the peer closed or reset, or the server is stopping.
  bool send(std::string_view bytes);
  /// Sends `piece` over and over until `total_bytes` have gone (the last copy cut to fit).
  bool send_repeated(std::string_view piece, std::int64_t total_bytes);
  /// Waits; false when the server is stopping.
  bool pause(std::chrono::milliseconds duration);
  /// Ends the connection with a TCP RST instead of a FIN (SO_LINGER with a zero timeout).
  void reset();
  std::int64_t bytes_sent() const { return bytes_sent_; }

 private:
  friend class HostileServer;
  bool read_request();
  bool wait_for(short events, int timeout_ms);

  int fd_;
  int stop_fd_;
  std::atomic<std::int64_t>* max_bytes_sent_;  // the server's, raised as bytes go
  std::string request_;
  std::int64_t bytes_sent_ = 0;
  bool reset_ = false;
};

class HostileServer {
 public:
  using Behaviour = std::function<void(Exchange&)>;

  /// Listens on 127.0.0.1 (a free port) and runs `behaviour` on every connection, each on its
  /// own thread. With `read_request` false the behaviour starts as soon as the connection is
  /// accepted (for peers that do not speak HTTP, such as a TLS client).
  explicit HostileServer(Behaviour behaviour, bool read_request = true);
  ~HostileServer();
  HostileServer(const HostileServer&) = delete;
  HostileServer& operator=(const HostileServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// Connections whose behaviour has run to its end.
  int exchanges_done() const { return exchanges_done_.load(); }
  /// The most bytes one connection has sent so far (kept up to date as they go, so a client
  /// that read a whole response cannot be seen before its bytes are counted).
  std::int64_t max_bytes_sent() const { return max_bytes_sent_.load(); }

 private:
  void accept_loop();
  void serve(int fd);

  Behaviour behaviour_;
  bool read_request_;
  int listen_fd_ = -1;
  int stop_fd_ = -1;  // an eventfd, readable once the destructor runs
  int port_ = 0;
  std::atomic<int> exchanges_done_{0};
  std::atomic<std::int64_t> max_bytes_sent_{0};
  std::mutex threads_mutex_;
  std::vector<std::thread> connection_threads_;
  std::thread accept_thread_;
};

/// A loopback port held bound without listen(): the kernel answers a SYN to it with a RST, so
/// a connect fails with ECONNREFUSED, and no other process can take the port meanwhile.
class ClosedPort {
 public:
  ClosedPort();
  ~ClosedPort();
  ClosedPort(const ClosedPort&) = delete;
  ClosedPort& operator=(const ClosedPort&) = delete;
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

/// A listener with a backlog of 0 that never accepts, and client sockets of its own that fill
/// its accept queue. Linux then drops every further SYN (tcp_conn_request: a full accept queue
/// is a drop, whatever the SYN-cookie setting), so a new connect neither succeeds nor is
/// refused: the client retransmits its SYN until its own timeout.
class FullAcceptQueue {
 public:
  FullAcceptQueue();
  ~FullAcceptQueue();
  FullAcceptQueue(const FullAcceptQueue&) = delete;
  FullAcceptQueue& operator=(const FullAcceptQueue&) = delete;
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int listen_fd_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

/// "HTTP/1.1 <status> <reason>" with the Content-Type, `extra` header lines (each ending in
/// CRLF) and "Connection: close", ending with the blank line. No length: the body ends when the
/// connection does.
std::string http_head(int status, std::string_view content_type, std::string_view extra = "");
/// A whole response with a Content-Length.
std::string http_response(int status, std::string_view content_type, std::string_view body);
/// One SSE event "data: <payload>\n\n".
std::string sse_event(std::string_view payload);
/// A chat completion chunk of vLLM's shape carrying `text`, with `finish_reason` when not empty.
std::string chat_chunk(std::string_view text, std::string_view finish_reason = "");

}  // namespace bench::testing
