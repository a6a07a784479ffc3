#include "hostile_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace bench::testing {

namespace {

// Closes a connection's descriptor however its behaviour ends.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

// Binds a new TCP socket to a free loopback port; returns the fd and sets `port`.
int bind_loopback(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket");
  sockaddr_in address = loopback(0);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    fail("bind 127.0.0.1:0");
  }
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  port = ntohs(address.sin_port);
  return fd;
}

std::string_view reason_of(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

// The value of a Content-Length header in a request head, 0 when absent.
std::size_t content_length(std::string_view head) {
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::size_t at = lower.find("\r\ncontent-length:");
  if (at == std::string::npos) return 0;
  return std::strtoull(lower.c_str() + at + 17, nullptr, 10);
}

}  // namespace

bool Exchange::wait_for(short events, int timeout_ms) {
  pollfd fds[2] = {{fd_, events, 0}, {stop_fd_, POLLIN, 0}};
  while (true) {
    const int ready = ::poll(fds, 2, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    if (fds[1].revents != 0) return false;  // the server is stopping
    return fds[0].revents != 0;
  }
}

bool Exchange::read_request() {
  char buffer[16 << 10];
  std::size_t head_end = std::string::npos;
  while (true) {
    if (head_end == std::string::npos) head_end = request_.find("\r\n\r\n");
    if (head_end != std::string::npos &&
        request_.size() >= head_end + 4 + content_length(request_.substr(0, head_end))) {
      return true;
    }
    if (!wait_for(POLLIN, -1)) return false;
    const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    if (got <= 0) return false;
    request_.append(buffer, static_cast<std::size_t>(got));
  }
}

std::string Exchange::receive() {
  char buffer[16 << 10];
  if (!wait_for(POLLIN, -1)) return "";
  const ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
  return got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : std::string();
}

bool Exchange::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(sent));
      bytes_sent_ += sent;
      std::int64_t most = max_bytes_sent_->load();
      while (bytes_sent_ > most && !max_bytes_sent_->compare_exchange_weak(most, bytes_sent_)) {
      }
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_for(POLLOUT, -1)) continue;
    return false;  // reset, closed, or the server is stopping
  }
  return true;
}

bool Exchange::send_repeated(std::string_view piece, std::int64_t total_bytes) {
  std::string block;  // many pieces at once, so a 100 MiB body is a few thousand sends
  while (block.size() < (256u << 10)) block.append(piece);
  while (total_bytes > 0) {
    const std::size_t take = static_cast<std::size_t>(
        std::min<std::int64_t>(total_bytes, static_cast<std::int64_t>(block.size())));
    if (!send(std::string_view(block).substr(0, take))) return false;
    total_bytes -= static_cast<std::int64_t>(take);
  }
  return true;
}

bool Exchange::pause(std::chrono::milliseconds duration) {
  pollfd stop = {stop_fd_, POLLIN, 0};
  return ::poll(&stop, 1, static_cast<int>(duration.count())) == 0;
}

void Exchange::reset() {
  // A zero linger time makes close() discard the send queue and answer with RST (socket(7)).
  linger abort_on_close{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  reset_ = true;
}

HostileServer::HostileServer(Behaviour behaviour, bool read_request)
    : behaviour_(std::move(behaviour)), read_request_(read_request) {
  listen_fd_ = bind_loopback(port_);
  if (::listen(listen_fd_, 128) != 0) {
    ::close(listen_fd_);
    fail("listen");
  }
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC);
  if (stop_fd_ < 0) {
    ::close(listen_fd_);
    fail("eventfd");
  }
  accept_thread_ = std::thread([this] { accept_loop(); });
}

HostileServer::~HostileServer() {
  const std::uint64_t one = 1;
  (void)!::write(stop_fd_, &one, sizeof one);
  accept_thread_.join();
  for (std::thread& thread : connection_threads_) thread.join();
  ::close(listen_fd_);
  ::close(stop_fd_);
}

void HostileServer::accept_loop() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  while (true) {
    const int ready = ::poll(fds, 2, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || fds[1].revents != 0) return;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const std::lock_guard lock(threads_mutex_);
    connection_threads_.emplace_back([this, fd] { serve(fd); });
  }
}

void HostileServer::serve(int fd) {
  const FdCloser closer(fd);
  Exchange exchange(fd, stop_fd_, &max_bytes_sent_);
  if (read_request_ && !exchange.read_request()) return;
  behaviour_(exchange);
  // A plain close sends FIN after the queued bytes (the request was read whole, so no unread
  // data turns it into a RST); reset() chose the RST already.
  if (!exchange.reset_) ::shutdown(fd, SHUT_WR);
  ++exchanges_done_;
}

ClosedPort::ClosedPort() { fd_ = bind_loopback(port_); }

ClosedPort::~ClosedPort() { ::close(fd_); }

FullAcceptQueue::FullAcceptQueue() {
  listen_fd_ = bind_loopback(port_);
  // Backlog 0: Linux queues one established connection (sk_acceptq_is_full is "more than the
  // backlog"), and drops the SYNs that come after it.
  if (::listen(listen_fd_, 0) != 0) {
    ::close(listen_fd_);
    fail("listen");
  }
  // Connect until one does not complete after one did: its SYN was dropped, so the queue is
  // full. (A loopback handshake completes within the connect call unless the SYN is dropped.)
  constexpr int kMaxFillers = 16;
  bool one_established = false;
  for (int i = 0; i < kMaxFillers; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) fail("socket");
    fillers_.push_back(fd);
    sockaddr_in address = loopback(port_);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      if (errno != EINPROGRESS) fail("connect to the accept-queue filler");
      pollfd connecting = {fd, POLLOUT, 0};
      const bool established = ::poll(&connecting, 1, one_established ? 200 : 5000) > 0;
      if (!established && one_established) return;  // still in SYN_SENT: the queue is full
      if (!established) continue;
    }
    one_established = true;
  }
  throw std::runtime_error("the accept queue of a backlog-0 listener never filled");
}

FullAcceptQueue::~FullAcceptQueue() {
  for (int fd : fillers_) ::close(fd);
  ::close(listen_fd_);
}

std::string http_head(int status, std::string_view content_type, std::string_view extra) {
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason_of(status)) +
                     "\r\nContent-Type: " + std::string(content_type) + "\r\n";
  head.append(extra);
  head += "Connection: close\r\n\r\n";
  return head;
}

std::string http_response(int status, std::string_view content_type, std::string_view body) {
  return http_head(status, content_type,
                   "Content-Length: " + std::to_string(body.size()) + "\r\n") +
         std::string(body);
}

std::string sse_event(std::string_view payload) { return "data: " + std::string(payload) + "\n\n"; }

std::string chat_chunk(std::string_view text, std::string_view finish_reason) {
  const std::string finish =
      finish_reason.empty() ? "null" : "\"" + std::string(finish_reason) + "\"";
  return R"({"id":"chatcmpl-hostile","object":"chat.completion.chunk","created":1,)"
         R"("model":"hostile","choices":[{"index":0,"delta":{"content":")" +
         std::string(text) + R"("},"finish_reason":)" + finish + "}]}";
}

}  // namespace bench::testing
