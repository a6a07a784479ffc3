// The embedded server's event loop: one thread, one epoll set holding the listening socket, a
// timerfd armed at the generation model's next event (nanosecond precision, unlike epoll_wait's
// milliseconds), an eventfd for shutdown, and every client connection.
//
// A connection carries one request at a time (HTTP/1.1 keep-alive; pipelined bytes wait in its
// input buffer). A completion request becomes a Stream: it draws its fault plan, the generation
// model (profiles.hpp) says when its tokens are ready, a StreamRenderer turns them into SSE
// chunks in the connection's output buffer, and every buffer touched in a loop turn is written
// at the end of that turn. Chunk times in the truth log are taken at that write, the moment the
// bytes are handed to the kernel.
#include "bench/sim/sim_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/sim/profiles.hpp"
#include "bench/util/clock.hpp"
#include "event_loop_fds.hpp"
#include "server_impl.hpp"

namespace bench::sim {

namespace {

constexpr int kMaxEventsPerWait = 512;
constexpr std::size_t kReadBytes = 64 << 10;

std::int64_t wall_clock_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return timespec_to_ns(now);
}

// A kernel stamp further back than this is not believed (the wall clock was stepped).
constexpr std::int64_t kMaxStampAgeNs = kNsPerSec;

}  // namespace

SimServer::Impl::Impl(SimOptions opts)
    : options(std::move(opts)),
      counter(options.tokenizer, options.chat_template),
      model(make_generation_model(options)),
      prefix_cache(make_prefix_cache(options)),
      trace(options.trace_path),
      rng(options.seed),
      model_json(json_string(options.model)),
      power(options.power, now_ns()) {
  counter.set_image_patch_px(options.image_patch_px);
  fds = open_event_loop(options.host, options.port);
  thread = std::thread([this] { loop(); });
}

SimServer::Impl::~Impl() {
  stop();
  if (thread.joinable()) thread.join();
}

void SimServer::Impl::stop() {
  stopping.store(true);
  const std::uint64_t one = 1;
  (void)!::write(fds.wake.get(), &one, sizeof one);
}

void SimServer::Impl::loop() {
  epoll_event events[kMaxEventsPerWait];
  while (!stopping.load()) {
    arm_timer();
    const int ready = ::epoll_wait(fds.epoll.get(), events, kMaxEventsPerWait, -1);
    if (ready < 0 && errno != EINTR) break;  // the loop cannot continue; the destructor cleans up
    // One stamp per wake, before any parsing, and the clock offset that moves the kernel's
    // receive stamps (received_ns) to the steady clock. The wake stamp is the fallback arrival
    // when a segment carries no kernel stamp: every request read in this turn was in the
    // kernel by now, so even then its arrival is not delayed by parsing the ones before it.
    wake_ns = now_ns();
    wall_minus_steady_ns = wall_clock_ns() - wake_ns;
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == fds.listen.get()) {
        accept_connections();
      } else if (fd == fds.timer.get()) {
        std::uint64_t expirations = 0;
        (void)!::read(fds.timer.get(), &expirations, sizeof expirations);
      } else if (fd == fds.wake.get()) {
        return;
      } else {
        on_connection_event(fd, events[i].events);
      }
    }
    const std::int64_t now = now_ns();
    end_stalls(now);
    end_jitters(now);
    end_delayed_closes(now);
    model->advance(now, *this);
    flush_dirty();
    // Requests pipelined behind a finished stream start only now, outside the model's advance.
    std::vector<std::pair<int, std::uint64_t>> pending;
    pending.swap(reparse);
    for (const auto& [fd, serial] : pending) {
      Connection* connection = connection_at(fd);
      if (connection == nullptr || connection->serial != serial) continue;
      // A pipelined request arrives when its connection is free to take it: now.
      connection->read_ns = now_ns();
      parse_requests(*connection);
    }
    flush_dirty();
    close_idle_connections(now_ns());
  }
}

// Closes, with a FIN, connections that have been idle (nothing being read, generated or
// written) for keepalive_timeout_s; looks eight times per timeout, so a connection lives at
// most an eighth longer than that.
void SimServer::Impl::close_idle_connections(std::int64_t now) {
  if (options.keepalive_timeout_s <= 0) return;
  const auto timeout_ns = s_to_ns_truncated(options.keepalive_timeout_s);
  if (next_idle_sweep_ns != kNever && now < next_idle_sweep_ns) return;
  next_idle_sweep_ns = now + std::max<std::int64_t>(timeout_ns / 8, kNsPerMs);
  std::vector<int> idle;
  for (const auto& [fd, connection] : connections) {
    if (connection->stream == 0 && !connection->finished_trace && connection->in.empty() &&
        connection->unsent() == 0 && now - connection->active_ns >= timeout_ns) {
      idle.push_back(fd);
    }
  }
  for (const int fd : idle) close_connection(fd);
}

void SimServer::Impl::arm_timer() {
  std::int64_t next = model->next_event_ns();
  if (!stalls.empty()) next = std::min(next, stalls.top().first);
  if (!jitters.empty()) next = std::min(next, jitters.top().first);
  next = std::min(next, next_idle_sweep_ns);
  if (!delayed_closes.empty()) next = std::min(next, delayed_closes.top().at_ns);
  itimerspec spec{};
  if (next != kNever) {
    const std::int64_t at = std::max<std::int64_t>(next, 1);  // 0 would disarm the timer
    spec.it_value = ns_to_timespec(at);
  }
  ::timerfd_settime(fds.timer.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

SimServer::Impl::Connection* SimServer::Impl::connection_at(int fd) {
  const auto found = connections.find(fd);
  return found == connections.end() ? nullptr : found->second.get();
}

void SimServer::Impl::accept_connections() {
  while (true) {
    const int fd = ::accept4(fds.listen.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN: all accepted; EMFILE and friends: retried on the next wake
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // The kernel stamps each received segment (socket(7), SO_TIMESTAMPNS): a request's arrival
    // is then when its bytes reached us, not when a busy loop got round to reading them.
    ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    auto connection = std::make_unique<Connection>();
    connection->fd.reset(fd);
    connection->serial = next_serial++;
    connection->active_ns = now_ns();
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.fd = fd;
    if (::epoll_ctl(fds.epoll.get(), EPOLL_CTL_ADD, fd, &event) != 0) continue;  // closes fd
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

// The steady-clock time of the last segment a recvmsg() returned, from its SO_TIMESTAMPNS
// stamp (CLOCK_REALTIME, moved to the steady clock with the offset taken at this wake); the
// wake's own stamp when the kernel gave none or gave one that cannot be right.
std::int64_t SimServer::Impl::received_ns(const msghdr& message) const {
  for (const cmsghdr* c = CMSG_FIRSTHDR(&message); c != nullptr;
       c = CMSG_NXTHDR(const_cast<msghdr*>(&message), const_cast<cmsghdr*>(c))) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec stamp{};
    std::memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
    const std::int64_t steady = timespec_to_ns(stamp) - wall_minus_steady_ns;
    if (steady < wake_ns - kMaxStampAgeNs) return wake_ns;
    return std::min(steady, wake_ns);  // never after we saw it
  }
  return wake_ns;
}

void SimServer::Impl::read_from(Connection& connection) {
  const int fd = connection.fd.get();
  char buffer[kReadBytes];
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  while (true) {
    iovec piece{buffer, sizeof buffer};
    msghdr message{};
    message.msg_iov = &piece;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(fd, &message, 0);
    if (n > 0) {
      connection.in.append(buffer, static_cast<std::size_t>(n));
      connection.read_ns = received_ns(message);
      connection.active_ns = wake_ns;
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
  const bool responses = path == "/v1/responses";
  const bool messages = path == "/v1/messages";
  connection.anthropic_errors = messages;
  if (path == "/v1/models" || path == "/health") {
    if (request.method != "GET") {
      send_error(connection, 405, "use GET for " + path, request.keep_alive);
    } else if (path == "/health") {
      send_simple(connection, 200, "application/json", "{}", request.keep_alive);
    } else {
      send_simple(connection, 200, "application/json",
                  models_body(options.model, unix_seconds(), options.max_model_len),
                  request.keep_alive);
    }
    served.fetch_add(1);
    return;
  }
  if (path == "/metrics") {
    answer_metrics(connection, request);
    return;
  }
  if (path == "/version") {
    // vLLM's GET /version (vllm/entrypoints/openai/api_server.py, show_version).
    if (request.method != "GET") {
      send_error(connection, 405, "use GET for /version", request.keep_alive);
    } else {
      send_simple(connection, 200, "application/json", R"({"version":"bench-sim"})",
                  request.keep_alive);
    }
    served.fetch_add(1);
    return;
  }
  if (path == "/flush_cache" || path == "/reset_prefix_cache") {
    flush_prefix_cache(connection, request);
    return;
  }
  if (completions || chat || responses || messages) {
    if (request.method != "POST") {
      send_error(connection, 405, "use POST for " + path, request.keep_alive);
      served.fetch_add(1);
      return;
    }
    start_completion(connection, request, !completions,
                     responses  ? EventApi::responses
                     : messages ? EventApi::messages
                                : EventApi::none);
    return;
  }
  if (answer_tokenizer_route(connection, request)) return;
  send_error(connection, 404, "no route for " + request.method + " " + path, request.keep_alive);
  served.fetch_add(1);
}

// /tokenize (and llama.cpp's /apply-template) in the dialect the server was asked to speak.
// GET /metrics: vLLM's names, from the streams open now and those ended (metrics_exposition.hpp).
void SimServer::Impl::answer_metrics(Connection& connection, const HttpRequest& request) {
  if (request.method != "GET") {
    send_error(connection, 405, "use GET for /metrics", request.keep_alive);
  } else {
    SimCounts now = counts;
    // Streams the model has queued are vLLM's waiting requests; the rest are in its batches.
    now.requests_waiting = static_cast<std::int64_t>(model->waiting());
    now.requests_running =
        std::max<std::int64_t>(0, static_cast<std::int64_t>(streams.size()) - now.requests_waiting);
    now.kv_cache_usage = model->kv_usage_ratio();
    // prometheus_client's content type for the 0.0.4 text format.
    // The GPUs' series beside the server's own, as a DCGM exporter on the same node serves them.
    send_simple(
        connection, 200, "text/plain; version=0.0.4; charset=utf-8",
        exposition(now, options.model, options.metrics_family) + power.dcgm_exposition(now_ns()),
        request.keep_alive);
  }
  served.fetch_add(1);
}

// A stream's tokens count once it ends, whatever ended it, as vLLM counts the tokens it
// processed; a success only when its whole answer went out.
void SimServer::Impl::count_ended(const Stream& stream) {
  const TraceRecord& record = stream.trace;
  counts.prompt_tokens += record.prompt_tokens;
  counts.generation_tokens += record.completion_tokens + stream.miscounted_tokens;
  if (record.outcome == "ok") ++counts.requests_succeeded;
  power.add_tokens(now_ns(), record.prompt_tokens, record.completion_tokens);
}

bool SimServer::Impl::answer_tokenizer_route(Connection& connection, const HttpRequest& request) {
  const std::optional<RouteAnswer> answer =
      answer_tokenize_route(request.method, request.target, request.body, options.tokenize_dialect,
                            counter, options.max_model_len);
  if (!answer) return false;
  send_simple(connection, answer->status, "application/json", answer->body, request.keep_alive);
  served.fetch_add(1);
  return true;
}

// SGLang's POST /flush_cache and vLLM's POST /reset_prefix_cache (its development mode): both
// answer 200 once the cache is empty. Without a cache there is nothing to flush: still 200, as
// SGLang answers with its radix cache disabled.
void SimServer::Impl::flush_prefix_cache(Connection& connection, const HttpRequest& request) {
  if (request.method != "POST") {
    send_error(connection, 405, "use POST for " + request.target, request.keep_alive);
  } else {
    if (prefix_cache) prefix_cache->flush();
    send_simple(connection, 200, "text/plain; charset=utf-8", "", request.keep_alive);
  }
  served.fetch_add(1);
}

void SimServer::Impl::send_simple(Connection& connection, int status, std::string_view content_type,
                                  std::string_view body, bool keep_alive) {
  append_simple_response(connection.out, status, content_type, body, keep_alive);
  if (!keep_alive) connection.close_after_write = true;
  mark_dirty(connection);
}

void SimServer::Impl::send_error(Connection& connection, int status, std::string_view message,
                                 bool keep_alive) {
  send_simple(connection, status, "application/json",
              connection.anthropic_errors
                  ? anthropic_error_body(message, anthropic_error_type(status))
                  : error_body(message, error_type(status), status),
              keep_alive);
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

// Hands the unsent output to the kernel until it takes no more; false when the connection was
// closed (a send failed).
bool SimServer::Impl::send_unsent(Connection& connection) {
  const int fd = connection.fd.get();
  // The moment these bytes are handed to the kernel is the truth log's send time for every
  // chunk they hold.
  const std::int64_t stamp = now_ns();
  if (connection.unstamped_chunks > 0) {
    TraceRecord* record = connection.finished_trace ? connection.finished_trace.get()
                                                    : &streams.at(connection.stream).trace;
    auto& times = record->chunk_ns;
    for (std::int64_t i = 0; i < connection.unstamped_chunks; ++i) {
      times[times.size() - 1 - static_cast<std::size_t>(i)] = stamp;
    }
    connection.unstamped_chunks = 0;
  }
  while (connection.unsent() > 0) {
    const ssize_t n =
        ::send(fd, connection.out.data() + connection.out_sent, connection.unsent(), MSG_NOSIGNAL);
    if (n > 0) {
      connection.out_sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    close_connection(fd);
    return false;
  }
  return true;
}

void SimServer::Impl::flush(Connection& connection) {
  const int fd = connection.fd.get();
  if (connection.unsent() > 0 && !send_unsent(connection)) return;
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
  connection.active_ns = now_ns();
  set_write_interest(connection, false);
  on_drained(connection);
}

// Everything written has been sent: a finished response is logged and the next request on the
// connection read, a held stream goes on, and a close that waited for the output happens.
void SimServer::Impl::on_drained(Connection& connection) {
  const int fd = connection.fd.get();
  if (connection.finished_trace) {
    connection.finished_trace->end_ns = now_ns();
    observe_latency(counts, *connection.finished_trace);
    trace.write(*connection.finished_trace);
    connection.finished_trace.reset();
    if (!connection.in.empty()) reparse.emplace_back(fd, connection.serial);
  }
  if (connection.stream != 0) {
    Stream& stream = streams.at(connection.stream);
    if (stream.held && stream.stall_until_ns == 0) {
      stream.held = false;
      model->resume(connection.stream, now_ns());
    }
  }
  if (connection.close_after_write) {
    if (options.close_delay_us > 0 && !connection.reset_after_write) {
      close_later(connection);
      return;
    }
    if (connection.reset_after_write) {
      // Linger on, for zero seconds: close() then sends an RST instead of a FIN (RFC 9293).
      const linger abort_on_close{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    }
    close_connection(fd);
  }
}

// llama.cpp's close after a stream, as measured: the FIN follows the last chunk by tens of
// microseconds, and what the client writes in between is never read (so the close resets it).
void SimServer::Impl::close_later(Connection& connection) {
  if (connection.closing) return;
  connection.closing = true;
  epoll_event event{};  // no interest: nothing more is read from it
  event.data.fd = connection.fd.get();
  ::epoll_ctl(fds.epoll.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
  delayed_closes.push(
      {now_ns() + options.close_delay_us * kNsPerUs, connection.fd.get(), connection.serial});
}

void SimServer::Impl::end_delayed_closes(std::int64_t now) {
  while (!delayed_closes.empty() && delayed_closes.top().at_ns <= now) {
    const DelayedClose due = delayed_closes.top();
    delayed_closes.pop();
    const Connection* connection = connection_at(due.fd);
    if (connection != nullptr && connection->serial == due.serial) close_connection(due.fd);
  }
}

void SimServer::Impl::set_write_interest(Connection& connection, bool want) {
  if (connection.write_armed == want) return;
  connection.write_armed = want;
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0u);
  event.data.fd = connection.fd.get();
  ::epoll_ctl(fds.epoll.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
}

void SimServer::Impl::close_connection(int fd) {
  const auto found = connections.find(fd);
  if (found == connections.end()) return;
  Connection& connection = *found->second;
  if (connection.finished_trace) {
    connection.finished_trace->end_ns = now_ns();
    observe_latency(counts, *connection.finished_trace);
    trace.write(*connection.finished_trace);
  }
  if (connection.stream != 0) {
    const auto stream = streams.find(connection.stream);
    if (stream != streams.end()) {
      model->remove(connection.stream);
      TraceRecord& record = stream->second.trace;
      record.completion_tokens = stream->second.renderer ? stream->second.renderer->sent_tokens()
                                                         : stream->second.sent_tokens;
      record.end_ns = now_ns();
      record.outcome = "client_closed";
      count_ended(stream->second);
      observe_latency(counts, record);
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

std::uint16_t SimServer::port() const { return impl_->fds.port; }

std::string SimServer::base_url() const {
  return fmt::format("http://{}:{}", impl_->options.host, impl_->fds.port);
}

std::uint64_t SimServer::requests_served() const { return impl_->served.load(); }

}  // namespace bench::sim
