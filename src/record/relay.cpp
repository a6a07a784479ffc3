// The relay: one thread, one epoll set of the listening socket and both sockets of every
// session (client side, server side). A read from either side is written to the other at once,
// in the same loop turn; its stamp is taken as read() returns, before any framing.
#include "relay.hpp"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "bench/util/clock.hpp"
#include "bench/util/listen_socket.hpp"
#include "bench/util/redact.hpp"

namespace bench::record {

namespace {

constexpr std::size_t kReadBytes = 64 << 10;
constexpr int kMaxEvents = 256;
constexpr int kStopPollMs = 50;  // how often the loop looks at the stop flag

std::uint64_t key(std::uint64_t session, std::uint64_t role) { return session << 1 | role; }

void no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// The header fields of a request head, credentials replaced by the redaction marker.
std::vector<std::pair<std::string, std::string>> redacted_headers(std::string_view head) {
  std::vector<std::pair<std::string, std::string>> headers;
  std::size_t at = head.find("\r\n");
  while (at != std::string_view::npos) {
    const std::size_t start = at + 2;
    const std::size_t end = head.find("\r\n", start);
    if (end == std::string_view::npos || end == start) break;
    const std::string_view line = head.substr(start, end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string name(line.substr(0, colon));
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      headers.emplace_back(name, util::is_credential_header(name)
                                     ? std::string(util::Redactor::kMarker)
                                     : std::string(value));
    }
    at = end;
  }
  return headers;
}

}  // namespace

Relay::Relay(const sockaddr_in& listen, const sockaddr_in& upstream, ExchangeWriter& writer,
             std::vector<std::string> session_headers)
    : upstream_(upstream), writer_(writer), session_headers_(std::move(session_headers)) {
  util::ListeningSocket listening = util::listen_tcp(listen);
  listen_fd_ = std::move(listening.fd);
  port_ = listening.port;
  epoll_fd_.reset(::epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_fd_.valid()) throw util::system_error("epoll_create1");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = 0;  // session 0: the listening socket
  ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_ADD, listen_fd_.get(), &event);
}

void Relay::run(const StopFlag& stop) {
  epoll_event events[kMaxEvents];
  while (!stop.load()) {
    const int ready = ::epoll_wait(epoll_fd_.get(), events, kMaxEvents, kStopPollMs);
    if (ready < 0 && errno != EINTR) throw util::system_error("epoll_wait");
    for (int i = 0; i < ready; ++i) {
      if (events[i].data.u64 == 0) {
        accept_clients();
      } else {
        on_event(events[i]);
      }
    }
    for (const std::uint64_t id : ended_) sessions_.erase(id);
    ended_.clear();
  }
  // Ctrl-C: what is complete is written; a response still arriving is not.
  for (auto& [id, session] : sessions_) finish_done(*session, true);
}

void Relay::accept_clients() {
  while (true) {
    const int fd = ::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    auto session = std::make_unique<Session>();
    session->id = next_session_++;
    session->client.reset(fd);
    no_delay(fd);
    session->upstream.reset(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    no_delay(session->upstream.get());
    const int connected = ::connect(
        session->upstream.get(), reinterpret_cast<const sockaddr*>(&upstream_), sizeof upstream_);
    if (connected != 0 && errno != EINPROGRESS) {
      fmt::print(stderr, "bench record: cannot connect to the server: {}\n", std::strerror(errno));
      continue;  // the session's destructor closes both sockets: the client sees the close
    }
    session->connected = connected == 0;
    Session& added = *session;
    sessions_.emplace(added.id, std::move(session));
    for (const Role role : {kClient, kUpstream}) {
      epoll_event event{};
      event.events = EPOLLIN | EPOLLRDHUP |
                     (role == kUpstream && !added.connected ? std::uint32_t{EPOLLOUT} : 0u);
      event.data.u64 = key(added.id, role);
      const int target = role == kClient ? added.client.get() : added.upstream.get();
      ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_ADD, target, &event);
    }
  }
}

void Relay::watch(Session& session, Role role, bool writable) {
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (writable ? std::uint32_t{EPOLLOUT} : 0u);
  event.data.u64 = key(session.id, role);
  const int fd = role == kClient ? session.client.get() : session.upstream.get();
  ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_MOD, fd, &event);
}

void Relay::on_event(const epoll_event& event) {
  const auto found = sessions_.find(event.data.u64 >> 1);
  if (found == sessions_.end() || !found->second->client.valid()) return;
  Session& session = *found->second;
  const bool upstream = (event.data.u64 & 1) == kUpstream;
  if (upstream) {
    if (!session.connected && (event.events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
      int error = 0;
      socklen_t length = sizeof error;
      ::getsockopt(session.upstream.get(), SOL_SOCKET, SO_ERROR, &error, &length);
      if (error != 0) {
        fmt::print(stderr, "bench record: cannot connect to the server: {}\n",
                   std::strerror(error));
        end_session(session.id);
        return;
      }
      session.connected = true;
    }
    if (event.events & EPOLLOUT) flush_upstream(session);
    if (event.events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) read_upstream(session);
  } else {
    if (event.events & EPOLLOUT) flush_client(session);
    if (event.events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) read_client(session);
  }
}

void Relay::read_client(Session& session) {
  char buffer[kReadBytes];
  while (session.client.valid()) {
    const ssize_t got = ::read(session.client.get(), buffer, sizeof buffer);
    if (got > 0) {
      session.to_upstream.append(buffer, static_cast<std::size_t>(got));
      session.unframed.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) break;
    // The client closed (or reset): its last exchange ended with the connection open.
    finish_done(session, true);
    end_session(session.id);
    return;
  }
  frame_requests(session);
  flush_upstream(session);
}

void Relay::frame_requests(Session& session) {
  while (const auto length = request_length(session.unframed)) {
    const std::string_view request(session.unframed.data(), *length);
    const std::size_t head_end = request.find("\r\n\r\n");
    const auto [method, target] = request_line(request);
    Pending pending;
    pending.framer = ResponseFramer(method == "HEAD");
    wire::Exchange& exchange = pending.exchange;
    exchange.name = fmt::format("{:06d}", next_exchange_++);
    exchange.connection = static_cast<std::int64_t>(session.id);
    exchange.request_body = std::string(request.substr(head_end + 4));
    exchange.shape = wire::shape_of(method, target, exchange.request_body);
    exchange.request_headers = redacted_headers(request.substr(0, head_end + 2));
    for (const std::string& name : session_headers_) {
      if (const auto value = header_value(request.substr(0, head_end + 2), name)) {
        pending.session = std::string(*value);
        break;
      }
    }
    session.framed_bytes += *length;
    pending.request_end = session.framed_bytes;
    session.pending.push_back(std::move(pending));
    session.unframed.erase(0, *length);
  }
}

void Relay::flush_upstream(Session& session) {
  if (!session.connected || !session.upstream.valid()) return;
  while (!session.to_upstream.empty()) {
    const ssize_t wrote =
        ::write(session.upstream.get(), session.to_upstream.data(), session.to_upstream.size());
    if (wrote <= 0) break;
    session.to_upstream.erase(0, static_cast<std::size_t>(wrote));
    session.upstream_written += static_cast<std::uint64_t>(wrote);
  }
  const std::int64_t now = now_ns();
  for (Pending& pending : session.pending) {
    if (pending.sent_ns < 0 && pending.request_end <= session.upstream_written) {
      pending.sent_ns = now;
    }
  }
  watch(session, kUpstream, !session.to_upstream.empty());
}

void Relay::read_upstream(Session& session) {
  char buffer[kReadBytes];
  while (true) {
    const ssize_t got = ::read(session.upstream.get(), buffer, sizeof buffer);
    const std::int64_t at_ns = now_ns();  // the read's stamp, before anything else
    if (got > 0) {
      const std::string_view bytes(buffer, static_cast<std::size_t>(got));
      session.to_client.append(bytes);
      flush_client(session);
      attribute(session, bytes, at_ns);
      continue;
    }
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
    on_upstream_closed(session, got == 0 ? wire::Close::How::fin : wire::Close::How::rst, at_ns);
    return;
  }
}

// Gives each byte of a read to the exchange whose response it belongs to.
void Relay::attribute(Session& session, std::string_view bytes, std::int64_t at_ns) {
  while (!bytes.empty()) {
    auto answering = std::find_if(session.pending.begin(), session.pending.end(),
                                  [](const Pending& pending) { return !pending.done; });
    if (answering == session.pending.end()) return;  // bytes no request asked for: not recorded
    if (answering != session.pending.begin() && answering->exchange.reads.empty()) {
      // A response begins: the ones before it are complete, and no close can follow them now.
      finish_done(session, false);
      answering = session.pending.begin();
    }
    Pending& pending = *answering;
    if (pending.sent_ns < 0) pending.sent_ns = at_ns;  // answered before its body was sent
    const std::size_t used = pending.framer.feed(bytes);
    pending.exchange.response.append(bytes.substr(0, used));
    pending.exchange.reads.push_back({at_ns - pending.sent_ns, pending.exchange.response.size()});
    pending.last_read_ns = at_ns;
    pending.done = pending.framer.complete();
    bytes.remove_prefix(used);
  }
}

void Relay::on_upstream_closed(Session& session, wire::Close::How how, std::int64_t at_ns) {
  // The close belongs to the latest exchange the server answered (completely or not).
  Pending* answered = nullptr;
  for (Pending& pending : session.pending) {
    if (!pending.exchange.reads.empty()) answered = &pending;
  }
  if (answered != nullptr) {
    wire::Close& close = answered->exchange.close;
    close.how = how;
    close.after_last_byte_ns = at_ns - answered->last_read_ns;
    close.idle = answered->done && close.after_last_byte_ns >= wire::kIdleCloseNs;
    answered->done = true;  // a body delimited by the close, or a response cut short
  }
  finish_done(session, true);
  if (how == wire::Close::How::rst) {
    // Passed on as it came: an RST (SO_LINGER 0, then close).
    const linger abort{1, 0};
    ::setsockopt(session.client.get(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
    end_session(session.id);
    return;
  }
  session.close_client_when_flushed = true;
  session.upstream.reset();
  flush_client(session);
}

void Relay::flush_client(Session& session) {
  while (!session.to_client.empty()) {
    const ssize_t wrote =
        ::write(session.client.get(), session.to_client.data(), session.to_client.size());
    if (wrote <= 0) break;
    session.to_client.erase(0, static_cast<std::size_t>(wrote));
  }
  if (session.to_client.empty() && session.close_client_when_flushed) {
    end_session(session.id);  // the server's FIN, passed on once its bytes are
    return;
  }
  watch(session, kClient, !session.to_client.empty());
}

// Hands the complete exchanges at the front to the writer; `drop_rest`: the session is ending,
// and an exchange still unanswered or half-answered is not recorded.
void Relay::finish_done(Session& session, bool drop_rest) {
  while (!session.pending.empty() && session.pending.front().done) {
    Pending& done = session.pending.front();
    done.exchange.status = wire::status_of(done.exchange.response);
    writer_.push({std::move(done.exchange), done.sent_ns, std::move(done.session)});
    session.pending.pop_front();
  }
  if (drop_rest) session.pending.clear();
}

void Relay::end_session(std::uint64_t id) {
  const auto found = sessions_.find(id);
  if (found == sessions_.end()) return;
  Session& session = *found->second;
  for (UniqueFd* fd : {&session.client, &session.upstream}) {
    if (fd->valid()) ::epoll_ctl(epoll_fd_.get(), EPOLL_CTL_DEL, fd->get(), nullptr);
    fd->reset();
  }
  ended_.push_back(id);
}

}  // namespace bench::record
