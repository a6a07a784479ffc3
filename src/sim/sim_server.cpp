// The embedded server's event loop: one thread, one epoll set holding the listening socket, a
// timerfd armed at the generation model's next event (nanosecond precision, unlike epoll_wait's
// milliseconds), an eventfd for shutdown, and every client connection.
//
// A connection carries one request at a time (HTTP/1.1 keep-alive; pipelined bytes wait in its
// input buffer). A completion request becomes a Stream: the model says when its tokens are ready,
// the server renders them as SSE chunks into the connection's output buffer, and every buffer
// touched in a loop turn is written at the end of that turn. Chunk times in the truth log are
// taken at that write, the moment the bytes are handed to the kernel.
#include "bench/sim/sim_server.hpp"

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
#include <ctime>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "bench/sim/completion_request.hpp"
#include "bench/sim/generation_model.hpp"
#include "bench/sim/http_request.hpp"
#include "bench/sim/stream_format.hpp"
#include "bench/sim/trace_log.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/unique_fd.hpp"

namespace bench::sim {

namespace {

constexpr int kMaxEventsPerWait = 512;
constexpr std::size_t kReadBytes = 64 << 10;
// A stream pauses (backpressure) above this much unsent output, and the connection is dropped
// above the hard cap: a client that stops reading must not grow the server without bound.
constexpr std::size_t kHighWatermarkBytes = 256 << 10;
constexpr std::size_t kMaxUnsentBytes = 64 << 20;

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

std::string_view error_type(int status) {
  if (status == 404) return "not_found_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

std::int64_t unix_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

}  // namespace

struct SimServer::Impl final : private TokenSink {
  struct Connection {
    UniqueFd fd;
    std::uint64_t serial = 0;       // tells a connection from a later one on the same fd number
    std::string in;                 // received, not yet parsed
    std::string out;                // rendered, not yet written
    std::size_t out_sent = 0;       // bytes of `out` already written
    StreamId stream = 0;            // the response being generated here; 0 = none
    bool close_after_write = false;
    bool write_armed = false;       // EPOLLOUT is in the interest set
    bool dirty = false;             // queued in dirty_ for the end-of-turn write
    std::int64_t unstamped_chunks = 0;  // text chunks in `out` whose send time is not yet known
    std::unique_ptr<TraceRecord> finished_trace;  // a stream that ended in `out`, not yet written

    std::size_t unsent() const { return out.size() - out_sent; }
  };

  struct Stream {
    int fd = -1;  // its connection
    CompletionRequest request;
    ResponseShape shape;
    std::int64_t target_tokens = 0;  // tokens it will generate
    bool stopped_by_length = true;   // finish_reason "length" (max_tokens) rather than "stop"
    std::int64_t sent_tokens = 0;
    bool keep_alive = true;
    bool held = false;               // the model holds it until the connection drains
    std::string text;                // non-streamed responses: the whole text so far
    TraceRecord trace;
  };

  explicit Impl(SimOptions opts);
  ~Impl() override;

  void loop();
  void stop();

  // TokenSink: render the tokens a stream just produced.
  bool on_tokens(StreamId id, std::int64_t tokens) override;

  void accept_connections();
  void on_connection_event(int fd, std::uint32_t events);
  void read_from(Connection& connection);
  void parse_requests(Connection& connection);
  void handle_request(Connection& connection, HttpRequest& request);
  void start_completion(Connection& connection, const HttpRequest& http, bool chat);
  void finish_stream(Connection& connection, StreamId id, std::string_view outcome);
  void send_simple(Connection& connection, int status, std::string_view content_type,
                   std::string_view body, bool keep_alive);
  void send_error(Connection& connection, int status, std::string_view message, bool keep_alive);
  void mark_dirty(Connection& connection);
  void flush_dirty();
  void flush(Connection& connection);
  void set_write_interest(Connection& connection, bool want);
  void close_connection(int fd);
  void arm_timer();
  Connection* connection_at(int fd);

  SimOptions options;
  UniqueFd listen_fd;
  UniqueFd epoll_fd;
  UniqueFd timer_fd;
  UniqueFd wake_fd;
  std::uint16_t port = 0;
  std::unique_ptr<GenerationModel> model;
  TraceLog trace;
  std::mt19937_64 rng;
  std::unordered_map<int, std::unique_ptr<Connection>> connections;  // by fd
  std::unordered_map<StreamId, Stream> streams;
  std::vector<std::pair<int, std::uint64_t>> dirty;  // (fd, serial) with output to write
  std::vector<std::pair<int, std::uint64_t>> reparse;  // connections whose stream just ended
  std::uint64_t next_serial = 1;
  StreamId next_stream_id = 1;
  std::string model_json;
  std::string event_scratch;
  std::atomic<std::uint64_t> served{0};
  std::atomic<bool> stopping{false};
  std::thread thread;
};

SimServer::Impl::Impl(SimOptions opts)
    : options(std::move(opts)),
      model(std::make_unique<FixedLatencyModel>(
          static_cast<std::int64_t>(options.ttft_ms * 1e6),
          static_cast<std::int64_t>(options.tpot_ms * 1e6), options.tokens_per_chunk)),
      trace(options.trace_path),
      rng(options.seed),
      model_json(json_string(options.model)) {
  listen_fd.reset(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!listen_fd.valid()) throw system_error("socket");
  const int one = 1;
  ::setsockopt(listen_fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(options.port);
  if (::inet_pton(AF_INET, options.host.c_str(), &address.sin_addr) != 1) {
    throw std::runtime_error("'" + options.host + "' is not an IPv4 address");
  }
  if (::bind(listen_fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    throw system_error(fmt::format("cannot listen on {}:{}", options.host, options.port));
  }
  if (::listen(listen_fd.get(), SOMAXCONN) != 0) throw system_error("listen");
  socklen_t length = sizeof address;
  ::getsockname(listen_fd.get(), reinterpret_cast<sockaddr*>(&address), &length);
  port = ntohs(address.sin_port);

  epoll_fd.reset(::epoll_create1(EPOLL_CLOEXEC));
  timer_fd.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  wake_fd.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!epoll_fd.valid() || !timer_fd.valid() || !wake_fd.valid()) throw system_error("epoll setup");
  for (int fd : {listen_fd.get(), timer_fd.get(), wake_fd.get()}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    if (::epoll_ctl(epoll_fd.get(), EPOLL_CTL_ADD, fd, &event) != 0) throw system_error("epoll_ctl");
  }
  thread = std::thread([this] { loop(); });
}

SimServer::Impl::~Impl() {
  stop();
  if (thread.joinable()) thread.join();
}

void SimServer::Impl::stop() {
  stopping.store(true);
  const std::uint64_t one = 1;
  (void)!::write(wake_fd.get(), &one, sizeof one);
}

void SimServer::Impl::loop() {
  epoll_event events[kMaxEventsPerWait];
  while (!stopping.load()) {
    arm_timer();
    const int ready = ::epoll_wait(epoll_fd.get(), events, kMaxEventsPerWait, -1);
    if (ready < 0 && errno != EINTR) break;  // the loop cannot continue; the destructor cleans up
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == listen_fd.get()) {
        accept_connections();
      } else if (fd == timer_fd.get()) {
        std::uint64_t expirations = 0;
        (void)!::read(timer_fd.get(), &expirations, sizeof expirations);
      } else if (fd == wake_fd.get()) {
        return;
      } else {
        on_connection_event(fd, events[i].events);
      }
    }
    model->advance(now_ns(), *this);
    flush_dirty();
    // Requests pipelined behind a finished stream start only now, outside the model's advance.
    std::vector<std::pair<int, std::uint64_t>> pending;
    pending.swap(reparse);
    for (const auto& [fd, serial] : pending) {
      Connection* connection = connection_at(fd);
      if (connection != nullptr && connection->serial == serial) parse_requests(*connection);
    }
    flush_dirty();
  }
}

void SimServer::Impl::arm_timer() {
  const std::int64_t next = model->next_event_ns();
  itimerspec spec{};
  if (next != kNever) {
    const std::int64_t at = std::max<std::int64_t>(next, 1);  // 0 would disarm the timer
    spec.it_value.tv_sec = at / kNsPerSec;
    spec.it_value.tv_nsec = at % kNsPerSec;
  }
  ::timerfd_settime(timer_fd.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

SimServer::Impl::Connection* SimServer::Impl::connection_at(int fd) {
  const auto found = connections.find(fd);
  return found == connections.end() ? nullptr : found->second.get();
}

void SimServer::Impl::accept_connections() {
  while (true) {
    const int fd = ::accept4(listen_fd.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN: all accepted; EMFILE and friends: retried on the next wake
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto connection = std::make_unique<Connection>();
    connection->fd.reset(fd);
    connection->serial = next_serial++;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (::epoll_ctl(epoll_fd.get(), EPOLL_CTL_ADD, fd, &event) != 0) continue;  // closes fd
    connections[fd] = std::move(connection);
  }
}

void SimServer::Impl::on_connection_event(int fd, std::uint32_t events) {
  Connection* connection = connection_at(fd);
  if (connection == nullptr) return;
  if (events & EPOLLOUT) {
    flush(*connection);
    if (connection_at(fd) != connection) return;  // closed while writing
  }
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) read_from(*connection);
}

void SimServer::Impl::read_from(Connection& connection) {
  const int fd = connection.fd.get();
  char buffer[kReadBytes];
  while (true) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n > 0) {
      connection.in.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n < 0 && errno == EINTR) continue;
    // The peer closed (n == 0) or the connection failed: whatever it was waiting for is moot.
    close_connection(fd);
    return;
  }
  parse_requests(connection);
}

void SimServer::Impl::parse_requests(Connection& connection) {
  HttpRequest request;
  // One request at a time: the next waits until the previous response is wholly written.
  while (connection.stream == 0 && !connection.finished_trace && !connection.close_after_write &&
         !connection.in.empty()) {
    const HttpParse parse = parse_http_request(connection.in, request);
    if (parse.status == HttpParse::Status::incomplete) return;
    if (parse.status == HttpParse::Status::error) {
      connection.in.clear();
      send_error(connection, parse.error_status, parse.error_message, /*keep_alive=*/false);
      return;
    }
    connection.in.erase(0, parse.consumed);
    handle_request(connection, request);
  }
}

void SimServer::Impl::handle_request(Connection& connection, HttpRequest& request) {
  const std::string& path = request.target;
  const bool completions = path == "/v1/completions";
  const bool chat = path == "/v1/chat/completions";
  if (path == "/v1/models" || path == "/health") {
    if (request.method != "GET") {
      send_error(connection, 405, "use GET for " + path, request.keep_alive);
    } else if (path == "/health") {
      send_simple(connection, 200, "application/json", "{}", request.keep_alive);
    } else {
      send_simple(connection, 200, "application/json", models_body(options.model, unix_seconds()),
                  request.keep_alive);
    }
    served.fetch_add(1);
    return;
  }
  if (completions || chat) {
    if (request.method != "POST") {
      send_error(connection, 405, "use POST for " + path, request.keep_alive);
      served.fetch_add(1);
      return;
    }
    start_completion(connection, request, chat);
    return;
  }
  send_error(connection, 404, "no route for " + request.method + " " + path, request.keep_alive);
  served.fetch_add(1);
}

void SimServer::Impl::start_completion(Connection& connection, const HttpRequest& http,
                                       bool chat) {
  const std::int64_t arrival_ns = now_ns();
  ParsedCompletionRequest parsed = parse_completion_request(http.body, chat);
  if (!parsed.request) {
    send_error(connection, 400, parsed.error, http.keep_alive);
    served.fetch_add(1);
    return;
  }
  // Every random choice is drawn in arrival order from one seeded generator, so a run with the
  // same seed and the same request order meets the same faults and lengths.
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double fault_draw = uniform(rng);
  const StreamId id = next_stream_id++;

  Stream stream;
  stream.fd = connection.fd.get();
  stream.request = std::move(*parsed.request);
  stream.keep_alive = http.keep_alive;
  stream.shape.chat = chat;
  stream.shape.id = fmt::format("{}-{}", chat ? "chatcmpl" : "cmpl", id);
  stream.shape.model_json =
      stream.request.model.empty() ? model_json : json_string(stream.request.model);
  stream.shape.created = unix_seconds();
  const std::int64_t max_tokens = stream.request.max_tokens.value_or(options.default_max_tokens);
  stream.target_tokens = max_tokens;
  if (!stream.request.ignore_eos && options.eos_probability > 0) {
    // The number of tokens before an EOS is geometric: each token ends the output with p.
    std::geometric_distribution<std::int64_t> until_eos(options.eos_probability);
    const std::int64_t eos_at = until_eos(rng) + 1;
    if (eos_at < max_tokens) {
      stream.target_tokens = eos_at;
      stream.stopped_by_length = false;
    }
  }
  stream.trace.id = stream.shape.id;
  stream.trace.chat = chat;
  stream.trace.stream = stream.request.stream;
  stream.trace.arrival_ns = arrival_ns;
  stream.trace.prompt_tokens = stream.request.prompt_tokens;

  if (fault_draw < options.fail_500_fraction) {
    send_error(connection, 500, "simulated internal error (--fail-500-fraction)",
               http.keep_alive);
    stream.trace.http_status = 500;
    stream.trace.outcome = "http_500";
    stream.trace.end_ns = now_ns();
    trace.write(stream.trace);
    served.fetch_add(1);
    return;
  }

  if (stream.request.stream) {
    connection.out += fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
        "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: {}\r\n\r\n",
        stream.keep_alive ? "keep-alive" : "close");
    if (chat) {
      // vLLM and SGLang open a chat stream with a role-only delta, before any token exists.
      event_scratch.clear();
      const Usage usage{stream.request.prompt_tokens, 0};
      append_role_event(event_scratch, stream.shape,
                        stream.request.continuous_usage ? &usage : nullptr);
      append_http_chunk(connection.out, event_scratch);
    }
    mark_dirty(connection);
  }
  connection.stream = id;
  model->admit(id, stream.request.prompt_tokens, stream.target_tokens, arrival_ns);
  streams.emplace(id, std::move(stream));
}

bool SimServer::Impl::on_tokens(StreamId id, std::int64_t tokens) {
  const auto found = streams.find(id);
  if (found == streams.end()) return false;
  Stream& stream = found->second;
  Connection* connection = connection_at(stream.fd);
  if (connection == nullptr) return false;

  const std::int64_t first = stream.sent_tokens;
  stream.sent_tokens += tokens;
  const bool finished = stream.sent_tokens >= stream.target_tokens;
  const std::string_view finish_reason =
      !finished ? "" : (stream.stopped_by_length ? "length" : "stop");

  if (!stream.request.stream) {
    append_token_text(stream.text, id, first, tokens);
    if (finished) {
      const Usage usage{stream.request.prompt_tokens, stream.sent_tokens};
      send_simple(*connection, 200, "application/json",
                  full_response_body(stream.shape, stream.text, finish_reason, usage),
                  stream.keep_alive);
      finish_stream(*connection, id, "ok");
    }
    return true;
  }

  std::string text;
  append_token_text(text, id, first, tokens);
  event_scratch.clear();
  const Usage usage{stream.request.prompt_tokens, stream.sent_tokens};
  append_text_event(event_scratch, stream.shape, text, finish_reason,
                    stream.request.continuous_usage ? &usage : nullptr);
  stream.trace.chunk_tokens.push_back(tokens);
  stream.trace.chunk_ns.push_back(0);  // stamped when written
  ++connection->unstamped_chunks;
  if (finished) {
    if (stream.request.include_usage && options.send_usage) {
      append_usage_event(event_scratch, stream.shape, usage);
    }
    append_done_event(event_scratch, stream.shape);
  }
  append_http_chunk(connection->out, event_scratch);
  if (finished) {
    append_last_http_chunk(connection->out);
    finish_stream(*connection, id, "ok");
    mark_dirty(*connection);
    return true;
  }
  mark_dirty(*connection);
  if (connection->unsent() > kHighWatermarkBytes) {
    stream.held = true;
    return false;
  }
  return true;
}

// The stream's bytes are all in the connection's buffer: its trace waits there for the write
// that stamps it, and once that write is done the connection takes its next request.
void SimServer::Impl::finish_stream(Connection& connection, StreamId id,
                                    std::string_view outcome) {
  const auto found = streams.find(id);
  Stream& stream = found->second;
  stream.trace.completion_tokens = stream.sent_tokens;
  stream.trace.outcome = outcome;
  connection.finished_trace = std::make_unique<TraceRecord>(std::move(stream.trace));
  if (!stream.keep_alive) connection.close_after_write = true;
  connection.stream = 0;
  model->remove(id);
  streams.erase(found);
  served.fetch_add(1);
}

void SimServer::Impl::send_simple(Connection& connection, int status,
                                  std::string_view content_type, std::string_view body,
                                  bool keep_alive) {
  fmt::format_to(std::back_inserter(connection.out),
                 "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: {}\r\n",
                 status, reason_phrase(status), content_type, body.size(),
                 keep_alive ? "keep-alive" : "close");
  if (status == 429 || status == 503) connection.out += "Retry-After: 1\r\n";
  connection.out += "\r\n";
  connection.out += body;
  if (!keep_alive) connection.close_after_write = true;
  mark_dirty(connection);
}

void SimServer::Impl::send_error(Connection& connection, int status, std::string_view message,
                                 bool keep_alive) {
  send_simple(connection, status, "application/json",
              error_body(message, error_type(status), status), keep_alive);
}

void SimServer::Impl::mark_dirty(Connection& connection) {
  if (connection.dirty) return;
  connection.dirty = true;
  dirty.emplace_back(connection.fd.get(), connection.serial);
}

void SimServer::Impl::flush_dirty() {
  std::vector<std::pair<int, std::uint64_t>> pending;
  pending.swap(dirty);
  for (const auto& [fd, serial] : pending) {
    Connection* connection = connection_at(fd);
    if (connection == nullptr || connection->serial != serial) continue;
    connection->dirty = false;
    flush(*connection);
  }
}

void SimServer::Impl::flush(Connection& connection) {
  const int fd = connection.fd.get();
  if (connection.unsent() > 0) {
    // The moment these bytes are handed to the kernel is the truth log's send time for every
    // chunk they hold.
    const std::int64_t stamp = now_ns();
    if (connection.unstamped_chunks > 0) {
      TraceRecord* record = connection.finished_trace
                                ? connection.finished_trace.get()
                                : &streams.at(connection.stream).trace;
      auto& times = record->chunk_ns;
      for (std::int64_t i = 0; i < connection.unstamped_chunks; ++i) {
        times[times.size() - 1 - static_cast<std::size_t>(i)] = stamp;
      }
      connection.unstamped_chunks = 0;
    }
    while (connection.unsent() > 0) {
      const ssize_t n = ::send(fd, connection.out.data() + connection.out_sent,
                               connection.unsent(), MSG_NOSIGNAL);
      if (n > 0) {
        connection.out_sent += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      close_connection(fd);
      return;
    }
  }
  if (connection.unsent() > kMaxUnsentBytes) {
    close_connection(fd);
    return;
  }
  if (connection.unsent() > 0) {
    set_write_interest(connection, true);
    return;
  }
  connection.out.clear();
  connection.out_sent = 0;
  set_write_interest(connection, false);
  if (connection.finished_trace) {
    connection.finished_trace->end_ns = now_ns();
    trace.write(*connection.finished_trace);
    connection.finished_trace.reset();
    if (!connection.in.empty()) reparse.emplace_back(fd, connection.serial);
  }
  if (connection.stream != 0) {
    Stream& stream = streams.at(connection.stream);
    if (stream.held) {
      stream.held = false;
      model->resume(connection.stream, now_ns());
    }
  }
  if (connection.close_after_write) close_connection(fd);
}

void SimServer::Impl::set_write_interest(Connection& connection, bool want) {
  if (connection.write_armed == want) return;
  connection.write_armed = want;
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0u);
  event.data.fd = connection.fd.get();
  ::epoll_ctl(epoll_fd.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
}

void SimServer::Impl::close_connection(int fd) {
  const auto found = connections.find(fd);
  if (found == connections.end()) return;
  Connection& connection = *found->second;
  if (connection.finished_trace) {
    connection.finished_trace->end_ns = now_ns();
    trace.write(*connection.finished_trace);
  }
  if (connection.stream != 0) {
    const auto stream = streams.find(connection.stream);
    if (stream != streams.end()) {
      model->remove(connection.stream);
      TraceRecord& record = stream->second.trace;
      record.completion_tokens = stream->second.sent_tokens;
      record.end_ns = now_ns();
      record.outcome = "client_closed";
      trace.write(record);
      streams.erase(stream);
      served.fetch_add(1);
    }
  }
  // Closing the fd removes it from the epoll set.
  connections.erase(found);
}

SimServer::SimServer(SimOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

SimServer::~SimServer() = default;

std::uint16_t SimServer::port() const { return impl_->port; }

std::string SimServer::base_url() const {
  return fmt::format("http://{}:{}", impl_->options.host, impl_->port);
}

std::uint64_t SimServer::requests_served() const { return impl_->served.load(); }

}  // namespace bench::sim
