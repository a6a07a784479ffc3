// The replay server's loop: one thread, one epoll set (listening socket, a timerfd armed at the
// earliest due read or close, an eventfd for shutdown, every connection). A connection plays one
// recorded response at a time; bytes pipelined behind its request wait until it is done.
#include "bench/sim/replay_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <queue>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/sim/http_request.hpp"
#include "bench/sim/trace_log.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/unique_fd.hpp"
#include "event_loop_fds.hpp"

namespace bench::sim {

namespace {

constexpr std::size_t kReadBytes = 64 << 10;
constexpr int kMaxEvents = 256;

// A key that orders shapes, for the map of recorded exchanges by shape.
std::string shape_key(const wire::Shape& shape) { return wire::describe(shape); }

}  // namespace

struct ReplayServer::Impl {
  struct Connection {
    UniqueFd fd;
    // A fresh number at every change of plan (from next_generation, so never the number of an
    // earlier connection on the same fd): timer entries of another number are stale.
    std::uint64_t generation = 0;
    std::string in;
    std::string out;  // due bytes the socket did not take yet
    const wire::Exchange* playing = nullptr;
    std::int64_t start_ns = 0;               // when its request arrived
    std::size_t next_read = 0;               // of playing->reads
    std::vector<std::int64_t> read_sent_ns;  // when each of those reads was handed to the socket
    std::int64_t close_at_ns = -1;           // a close is due then (-1: none)
    bool close_idle = false;                 // ... unless a request comes first
    bool reset = false;                      // that close is an RST
  };
  struct Due {
    std::int64_t at_ns;
    int fd;
    std::uint64_t generation;
    bool operator>(const Due& other) const { return at_ns > other.at_ns; }
  };

  Impl(std::vector<wire::Exchange> recorded, ReplayOptions opts);
  void loop();
  void accept_connections();
  void read_from(int fd);
  void serve_next(Connection& connection);
  void start(Connection& connection, const wire::Exchange& exchange, std::int64_t arrived_ns);
  void play_due(Connection& connection, std::int64_t now);
  void after_response(Connection& connection);
  void write_out(Connection& connection);
  void close_connection(int fd, bool reset);
  void schedule(Connection& connection, std::int64_t at_ns);
  void arm_timer();
  void on_timer();
  std::int64_t scaled(std::int64_t recorded_ns) const {
    return static_cast<std::int64_t>(static_cast<double>(recorded_ns) / options.speed);
  }

  std::vector<wire::Exchange> exchanges;
  ReplayOptions options;
  // Shape -> its exchanges (indices), with the index of the next one to serve.
  std::map<std::string, std::pair<std::vector<std::size_t>, std::size_t>> by_shape;
  EventLoopFds fds;  // the listening socket, its port, and the loop's epoll, timer and wake-up
  std::unordered_map<int, std::unique_ptr<Connection>> connections;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due;
  std::uint64_t next_generation = 1;
  // --trace: what was played when, so a test can hold bench's figures against what the replay
  // really sent rather than what it meant to (a loaded machine wakes its timer late).
  TraceLog truth_log;
  std::atomic<std::uint64_t> served{0};
  std::atomic<bool> stopping{false};
  std::thread thread;
};

ReplayServer::Impl::Impl(std::vector<wire::Exchange> recorded, ReplayOptions opts)
    : exchanges(std::move(recorded)), options(std::move(opts)), truth_log(options.trace_path) {
  for (std::size_t k = 0; k < exchanges.size(); ++k) {
    by_shape[shape_key(exchanges[k].shape)].first.push_back(k);
  }
  fds = open_event_loop(options.host, options.port);
  thread = std::thread([this] { loop(); });
}

void ReplayServer::Impl::loop() {
  epoll_event events[kMaxEvents];
  while (!stopping.load()) {
    arm_timer();
    const int ready = ::epoll_wait(fds.epoll.get(), events, kMaxEvents, -1);
    if (ready < 0 && errno != EINTR) return;
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == fds.listen.get()) {
        accept_connections();
      } else if (fd == fds.wake.get()) {
        return;
      } else if (fd == fds.timer.get()) {
        std::uint64_t expirations = 0;
        (void)!::read(fds.timer.get(), &expirations, sizeof expirations);
      } else {
        const auto found = connections.find(fd);
        if (found == connections.end()) continue;
        Connection& connection = *found->second;
        if (connection.close_at_ns >= 0 && !connection.close_idle) {
          // Reads are off until the close; a client that goes first ends it sooner.
          if (events[i].events & (EPOLLHUP | EPOLLERR)) close_connection(fd, false);
          continue;
        }
        if (events[i].events & EPOLLOUT) write_out(connection);
        if (connections.count(fd) != 0) read_from(fd);
      }
    }
    on_timer();
  }
}

void ReplayServer::Impl::accept_connections() {
  while (true) {
    const int fd = ::accept4(fds.listen.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto connection = std::make_unique<Connection>();
    connection->fd.reset(fd);
    connection->generation = next_generation++;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (::epoll_ctl(fds.epoll.get(), EPOLL_CTL_ADD, fd, &event) != 0) continue;
    connections[fd] = std::move(connection);
  }
}

void ReplayServer::Impl::read_from(int fd) {
  Connection& connection = *connections.at(fd);
  char buffer[kReadBytes];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      connection.in.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EAGAIN) break;
    close_connection(fd, false);  // the client closed
    return;
  }
  serve_next(connection);
}

void ReplayServer::Impl::serve_next(Connection& connection) {
  if (connection.playing != nullptr || connection.in.empty()) return;
  HttpRequest request;
  const HttpParse parse = parse_http_request(connection.in, request);
  if (parse.status == HttpParse::Status::incomplete) return;
  const std::int64_t arrived = now_ns();
  if (parse.status == HttpParse::Status::error) {
    close_connection(connection.fd.get(), false);
    return;
  }
  connection.in.erase(0, parse.consumed);
  connection.close_at_ns = -1;  // an idle close is off: a request came
  served.fetch_add(1);
  const wire::Shape shape = wire::shape_of(request.method, request.target, request.body);
  const auto found = by_shape.find(shape_key(shape));
  if (found == by_shape.end()) {
    const std::string body = fmt::format(
        R"({{"error":{{"message":"bench serve-sim --replay: no recorded exchange for {}","type":"not_found_error","code":404}}}})",
        wire::describe(shape));
    connection.out += fmt::format(
        "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.size(), body);
    const int fd = connection.fd.get();
    write_out(connection);
    if (connections.count(fd) != 0) serve_next(connection);
    return;
  }
  auto& [indices, next] = found->second;
  const wire::Exchange& exchange = exchanges[indices[next]];
  next = (next + 1) % indices.size();  // several recordings of a shape: each in turn
  start(connection, exchange, arrived);
}

void ReplayServer::Impl::start(Connection& connection, const wire::Exchange& exchange,
                               std::int64_t arrived_ns) {
  connection.playing = &exchange;
  connection.start_ns = arrived_ns;
  connection.next_read = 0;
  connection.read_sent_ns.clear();
  connection.generation = next_generation++;
  play_due(connection, now_ns());
}

// Writes every read whose time has come, then waits for the next one or ends the response.
void ReplayServer::Impl::play_due(Connection& connection, std::int64_t now) {
  const wire::Exchange& exchange = *connection.playing;
  while (connection.next_read < exchange.reads.size()) {
    const wire::Read& read = exchange.reads[connection.next_read];
    const std::int64_t at = connection.start_ns + scaled(read.at_ns);
    if (at > now) {
      schedule(connection, at);
      write_out(connection);  // what is due goes now (write_out may close the connection)
      return;
    }
    const std::size_t begin =
        connection.next_read == 0 ? 0 : exchange.reads[connection.next_read - 1].end;
    connection.out.append(exchange.response, begin, read.end - begin);
    connection.read_sent_ns.push_back(now);
    ++connection.next_read;
  }
  const int fd = connection.fd.get();
  write_out(connection);
  if (connections.count(fd) != 0) after_response(connection);
}

void ReplayServer::Impl::after_response(Connection& connection) {
  const wire::Exchange& exchange = *connection.playing;
  if (truth_log.enabled()) {
    truth_log.write_line(
        fmt::format(R"({{"exchange":{},"shape":"{}","arrival_ns":{},"read_ns":[{}]}})",
                    &exchange - exchanges.data(), wire::describe(exchange.shape),
                    connection.start_ns, fmt::join(connection.read_sent_ns, ",")));
  }
  connection.playing = nullptr;
  connection.generation = next_generation++;
  if (exchange.close.how == wire::Close::How::open) {
    serve_next(connection);
    return;
  }
  const std::int64_t last = exchange.reads.empty() ? 0 : exchange.reads.back().at_ns;
  connection.close_at_ns =
      connection.start_ns + scaled(last) + scaled(exchange.close.after_last_byte_ns);
  connection.close_idle = exchange.close.idle;
  connection.reset = exchange.close.how == wire::Close::How::rst;
  schedule(connection, connection.close_at_ns);
  if (connection.close_idle) {
    serve_next(connection);
    return;
  }
  // A close after the response is coming: what the client sends meanwhile is left unread, so
  // the close meets it (llama.cpp closes with the next request unread in its socket).
  epoll_event event{};
  event.data.fd = connection.fd.get();
  ::epoll_ctl(fds.epoll.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
}

void ReplayServer::Impl::write_out(Connection& connection) {
  while (!connection.out.empty()) {
    const ssize_t wrote =
        ::send(connection.fd.get(), connection.out.data(), connection.out.size(), MSG_NOSIGNAL);
    if (wrote < 0 && errno == EAGAIN) break;
    if (wrote <= 0) {
      close_connection(connection.fd.get(), false);
      return;
    }
    connection.out.erase(0, static_cast<std::size_t>(wrote));
  }
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (connection.out.empty() ? 0u : std::uint32_t{EPOLLOUT});
  event.data.fd = connection.fd.get();
  ::epoll_ctl(fds.epoll.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
}

void ReplayServer::Impl::close_connection(int fd, bool reset) {
  const auto found = connections.find(fd);
  if (found == connections.end()) return;
  if (reset) {
    const linger abort{1, 0};  // close with an RST (socket(7), SO_LINGER with a zero timeout)
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
  }
  ::epoll_ctl(fds.epoll.get(), EPOLL_CTL_DEL, fd, nullptr);
  connections.erase(found);
}

void ReplayServer::Impl::schedule(Connection& connection, std::int64_t at_ns) {
  due.push({at_ns, connection.fd.get(), connection.generation});
}

void ReplayServer::Impl::arm_timer() {
  itimerspec spec{};
  if (!due.empty()) {
    const std::int64_t at = std::max<std::int64_t>(due.top().at_ns, 1);
    spec.it_value = ns_to_timespec(at);
  }
  ::timerfd_settime(fds.timer.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

void ReplayServer::Impl::on_timer() {
  const std::int64_t now = now_ns();
  while (!due.empty() && due.top().at_ns <= now) {
    const Due next = due.top();
    due.pop();
    const auto found = connections.find(next.fd);
    if (found == connections.end() || found->second->generation != next.generation) continue;
    Connection& connection = *found->second;
    if (connection.playing != nullptr) {
      play_due(connection, now);
    } else if (connection.close_at_ns >= 0) {
      close_connection(next.fd, connection.reset);
    }
  }
}

ReplayServer::ReplayServer(std::vector<wire::Exchange> exchanges, ReplayOptions options)
    : impl_(std::make_unique<Impl>(std::move(exchanges), std::move(options))) {}

ReplayServer::~ReplayServer() {
  impl_->stopping.store(true);
  const std::uint64_t one = 1;
  (void)!::write(impl_->fds.wake.get(), &one, sizeof one);
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::uint16_t ReplayServer::port() const { return impl_->fds.port; }

std::string ReplayServer::base_url() const {
  return fmt::format("http://{}:{}", impl_->options.host, impl_->fds.port);
}

std::uint64_t ReplayServer::requests_served() const { return impl_->served.load(); }

}  // namespace bench::sim
