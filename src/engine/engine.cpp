#include "bench/engine/engine.hpp"

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "bench/engine/curl_error.hpp"
#include "bench/engine/curl_handles.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/unique_fd.hpp"
#include "deadline_queue.hpp"
#include "free_slots.hpp"
#include "preconnect_burst.hpp"
#include "easy_options.hpp"

namespace bench::engine {

namespace {

constexpr std::int64_t kNoDeadline = INT64_MAX;
// The loop wakes at least this often so a stop request is seen promptly.
constexpr std::int64_t kMaxWaitNs = 100 * kNsPerMs;
constexpr int kMaxEventsPerWait = 256;
constexpr std::int64_t kSlowTurnNs = kNsPerMs;
// Most requests started in one turn of the loop before it reads the sockets that are ready.
// When a closed loop's whole wave ends at once, starting all of its successors in one turn
// would leave the first chunks of the earliest ones unread (and stamped late) for the whole
// burst; a batch this size costs well under a millisecond.
constexpr int kMaxStartsPerTurn = 32;
// Most transfers a deadline ended that one turn tears down (~25 us each: closing the connection,
// then the handler's record) before the loop reads the sockets and judges the deadlines due
// since: a thousand limits that fire within a few milliseconds are each judged at its time,
// not after the teardown of every one before it.
constexpr int kMaxTeardownsPerTurn = 4;
// What a preconnect GET may take beyond connecting before the burst gives up on it.
constexpr std::int64_t kPreconnectAnswerMs = 5'000;

}  // namespace

struct Engine::Impl {
  // One reusable transfer slot: an easy handle (options persist across requests, so
  // connections and settings are reused) plus the request it currently carries.
  struct Transfer {
    EasyHandle easy;
    TransferRequest request;
    std::uint32_t slot = 0;         // index in `transfers`
    std::uint64_t serial = 0;       // which start this is; stale deadlines carry an older one
    bool in_flight = false;
    bool headers_seen = false;
    bool aborted_by_handler = false;
    std::int64_t body_bytes = 0;
    std::int64_t sent_ns = 0;       // when it was handed to curl
    std::int64_t last_byte_ns = 0;  // stamp of the latest body bytes
    // How a deadline ended it, set when the deadline fired; the transfer is torn down (and its
    // handler told) in a later step, with this end and its time. Bytes after it are dropped.
    std::optional<TransferEnd> judged;
    Impl* engine = nullptr;
  };

  // What one call of run() decides as it goes.
  struct RunState {
    RequestSource* source = nullptr;
    const std::atomic<bool>* stop = nullptr;
    bool stopping = false;
    std::int64_t grace_deadline_ns = kNoDeadline;
    std::int64_t turn_start_ns = 0;  // when the current turn of the loop began; 0 = none yet
    bool opening_fill = true;        // the first pass of starts: no connection of the run yet
    bool starts_deferred = false;    // due requests left for the next turn, after the reads
    std::optional<std::int64_t> next_due;  // the next request's due time, while a slot is free
  };

  explicit Impl(EngineOptions opts);

  EngineStats run(RequestSource& source, const std::atomic<bool>* stop, std::int64_t slots);

  // libcurl callbacks (C ABI, must not throw).
  static int on_socket(CURL* easy, curl_socket_t fd, int what, void* userp, void* socketp);
  static int on_timer(CURLM* multi, long timeout_ms, void* userp);
  static size_t on_write(char* data, size_t size, size_t count, void* userp);

  // The loop's steps, in the order a turn takes them.
  void observe_stop(RunState& run);
  void start_due_requests(RunState& run);
  void start_next(RequestSource& source);
  std::int64_t wake_time(const RunState& run) const;
  void wait_and_dispatch(RunState& run, std::int64_t wake_ns);
  void fire_deadlines(std::int64_t now);
  void tear_down_judged();
  void push_deadline(const Deadline& deadline);
  bool is_live(const Deadline& deadline) const;

  void keep_connections(std::int64_t count);
  Transfer& acquire_transfer();
  void start_transfer(Transfer& transfer);
  void arm_timer(std::int64_t wake_ns);
  void deliver_headers(Transfer& transfer);
  void finish_transfer(Transfer& transfer, CURLcode result);
  void end_transfer(Transfer& transfer, const TransferEnd& end);
  void end_early(Transfer& transfer, metrics::ErrorClass error, std::string message,
                 std::int64_t end_ns);
  void judge(Transfer& transfer, metrics::ErrorClass error, std::string message,
             std::int64_t end_ns);
  void end_judged(Transfer& transfer);
  void drain_finished();
  void cancel_in_flight(const std::string& why);
  void socket_action(curl_socket_t fd, int flags);
  curl_slist* header_list_for(const std::vector<std::string>* lines);

  EngineOptions options;
  MultiHandle multi;
  UniqueFd epoll_fd;
  // Wakes the loop at the next deadline with nanosecond precision: epoll_wait counts whole
  // milliseconds, which would send scheduled requests up to 1 ms late (AIPerf measured the same
  // quantisation in event-loop timers).
  UniqueFd timer_fd;
  std::int64_t timer_armed_ns = -1;  // what timer_fd is armed for; -1 = disarmed
  std::vector<std::unique_ptr<Transfer>> transfers;  // every slot ever made
  std::vector<Transfer*> idle;                       // slots not in flight
  std::map<const std::vector<std::string>*, HeaderList> header_lists;
  FreeSlots free_slots;                         // since when each free concurrency slot is free
  DeadlineQueue deadlines;                      // first-token and stall limits of transfers
  // Transfers a deadline judged, oldest first, with the serial they were judged under.
  std::deque<std::pair<Transfer*, std::uint64_t>> judged;
  std::int64_t concurrency = 0;  // slots of the current run: options' or a preconnect burst's
  std::int64_t in_flight = 0;
  std::uint64_t next_serial = 1;
  std::int64_t curl_deadline_ns = kNoDeadline;  // from CURLMOPT_TIMERFUNCTION
  std::int64_t read_stamp_ns = 0;  // taken before each socket_action: one stamp per read
  EngineStats stats;
};

Engine::Impl::Impl(EngineOptions opts)
    : options(std::move(opts)), multi(curl_multi_init()), epoll_fd(epoll_create1(EPOLL_CLOEXEC)) {
  if (!multi) throw std::runtime_error("curl_multi_init failed");
  if (epoll_fd.get() < 0) {
    throw std::runtime_error(std::string("epoll_create1 failed: ") + std::strerror(errno));
  }
  timer_fd.reset(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  if (!timer_fd.valid()) {
    throw std::runtime_error(std::string("timerfd_create failed: ") + std::strerror(errno));
  }
  epoll_event timer_event{};
  timer_event.events = EPOLLIN;
  timer_event.data.fd = timer_fd.get();
  if (epoll_ctl(epoll_fd.get(), EPOLL_CTL_ADD, timer_fd.get(), &timer_event) != 0) {
    throw std::runtime_error(std::string("epoll_ctl(timerfd) failed: ") + std::strerror(errno));
  }
  CURLM* m = multi.get();
  curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, &Impl::on_socket);
  curl_multi_setopt(m, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, &Impl::on_timer);
  curl_multi_setopt(m, CURLMOPT_TIMERDATA, this);
  // N independent streaming clients: one HTTP/1.1 connection per in-flight request, no
  // multiplexing (CURLMOPT_PIPELINING defaults to CURLPIPE_MULTIPLEX since curl 7.62.0), and no
  // connection cap: past CURLMOPT_MAX_HOST_CONNECTIONS or CURLMOPT_MAX_TOTAL_CONNECTIONS, curl
  // queues transfers internally (curl's docs/libcurl/opts/CURLMOPT_*.md).
  curl_multi_setopt(m, CURLMOPT_PIPELINING, CURLPIPE_NOTHING);
  curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, 0L);
  curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, 0L);
  keep_connections(options.concurrency);
}

// Keep every idle connection for reuse by the next request (curl keeps 4 per handle by default).
void Engine::Impl::keep_connections(std::int64_t count) {
  curl_multi_setopt(multi.get(), CURLMOPT_MAXCONNECTS, static_cast<long>(count + 16));
}

// CURLMOPT_SOCKETFUNCTION: mirror curl's interest in a socket into epoll.
int Engine::Impl::on_socket(CURL*, curl_socket_t fd, int what, void* userp, void* socketp) {
  auto* self = static_cast<Impl*>(userp);
  if (what == CURL_POLL_REMOVE) {
    // The fd may already be closed; a failed DEL is harmless then.
    epoll_ctl(self->epoll_fd.get(), EPOLL_CTL_DEL, fd, nullptr);
    curl_multi_assign(self->multi.get(), fd, nullptr);
    return 0;
  }
  epoll_event event{};
  event.data.fd = fd;
  if (what & CURL_POLL_IN) event.events |= EPOLLIN;
  if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
  const int op = socketp != nullptr ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  if (epoll_ctl(self->epoll_fd.get(), op, fd, &event) != 0) {
    // A reused fd number may still be registered (ADD -> EEXIST) or not (MOD -> ENOENT).
    const int retry_op = op == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    epoll_ctl(self->epoll_fd.get(), retry_op, fd, &event);
  }
  curl_multi_assign(self->multi.get(), fd, self);  // any non-null marks "registered"
  return 0;
}

// CURLMOPT_TIMERFUNCTION: one deadline; -1 deletes it, 0 means "as soon as possible".
int Engine::Impl::on_timer(CURLM*, long timeout_ms, void* userp) {
  auto* self = static_cast<Impl*>(userp);
  self->curl_deadline_ns = timeout_ms < 0 ? kNoDeadline : now_ns() + timeout_ms * kNsPerMs;
  return 0;
}

// CURLOPT_WRITEFUNCTION: body bytes after chunked decoding, stamped with the read's time.
size_t Engine::Impl::on_write(char* data, size_t size, size_t count, void* userp) {
  auto* transfer = static_cast<Transfer*>(userp);
  Impl& engine = *transfer->engine;
  const size_t bytes = size * count;
  if (!transfer->headers_seen) engine.deliver_headers(*transfer);
  if (transfer->body_bytes == 0 && bytes > 0 && engine.options.stall_timeout_ms > 0) {
    // The stall limit counts from the first body byte; later bytes only move it (lazily).
    engine.push_deadline({engine.read_stamp_ns + engine.options.stall_timeout_ms * kNsPerMs,
                           transfer->serial, transfer->slot, DeadlineKind::stall});
  }
  transfer->body_bytes += static_cast<std::int64_t>(bytes);
  transfer->last_byte_ns = engine.read_stamp_ns;
  // A deadline already decided how it ends: bytes after that are not the request's.
  if (transfer->judged) return bytes;
  const bool keep_going = transfer->request.handler->on_body(std::string_view(data, bytes),
                                                             engine.read_stamp_ns);
  if (!keep_going) {
    transfer->aborted_by_handler = true;
    return CURL_WRITEFUNC_ERROR;
  }
  return bytes;
}

// --- The loop ---------------------------------------------------------------------------

EngineStats Engine::Impl::run(RequestSource& source, const std::atomic<bool>* stop,
                              std::int64_t slots) {
  stats = EngineStats{};
  deadlines.clear();
  judged.clear();
  concurrency = slots;
  free_slots.reset(slots, now_ns());
  RunState run;
  run.source = &source;
  run.stop = stop;
  while (true) {
    observe_stop(run);
    if (now_ns() >= source.cancel_at_ns()) {
      stats.stopped = stats.stopped || source.next_due_ns().has_value();
      cancel_in_flight("cancelled by bench at the end of the run's duration (--duration-hard)");
      break;
    }
    if (!run.stopping) start_due_requests(run);
    if (in_flight == 0 && (run.stopping || !run.next_due)) break;
    if (run.stopping && now_ns() >= run.grace_deadline_ns) {
      cancel_in_flight("cancelled by bench after the stop grace period");
      break;
    }
    wait_and_dispatch(run, wake_time(run));
    fire_deadlines(now_ns());
    tear_down_judged();
  }
  return stats;
}

void Engine::Impl::observe_stop(RunState& run) {
  if (run.stopping || run.stop == nullptr || !run.stop->load(std::memory_order_relaxed)) return;
  run.stopping = true;
  run.next_due.reset();
  stats.stopped = true;
  run.grace_deadline_ns = now_ns() + options.grace_ms * kNsPerMs;
}

// Starts every due request while a concurrency slot is free, at most kMaxStartsPerTurn of them
// before the loop reads what is waiting on the sockets. Each one is sent as soon as it is
// stamped: curl's timer for a new handle is already due, so this socket_action writes just that
// request on a kept-alive connection. Left to one call after the whole batch (or to curl's
// timer), the first request stamped would wait for every later one to be built and written,
// and that wait would count as server latency in its TTFT. The run's opening fill is the
// exception: there is no connection to reuse and nothing to read yet, a socket_action only
// starts a connect (whose time is in TTFT by definition), and one call for the whole burst gets
// the connects out sooner than one call each.
void Engine::Impl::start_due_requests(RunState& run) {
  const bool opening = run.opening_fill;
  run.opening_fill = false;
  run.starts_deferred = false;
  int started = 0;
  while (in_flight < concurrency && (run.next_due = run.source->next_due_ns()) &&
         *run.next_due <= now_ns()) {
    if (!opening && started == kMaxStartsPerTurn) {
      run.starts_deferred = true;
      break;
    }
    start_next(*run.source);
    ++started;
    if (!opening) socket_action(CURL_SOCKET_TIMEOUT, 0);
  }
  if (opening && started > 0) socket_action(CURL_SOCKET_TIMEOUT, 0);
  if (in_flight < concurrency && !run.next_due) run.next_due = run.source->next_due_ns();
}

void Engine::Impl::start_next(RequestSource& source) {
  Transfer& transfer = acquire_transfer();
  const std::int64_t slot_free_ns = free_slots.take();
  transfer.request = source.take_next(slot_free_ns, now_ns());
  start_transfer(transfer);
}

// The earliest of: a due request (while a slot is free), curl's timer, a transfer's deadline,
// the end of a stop's grace period, the hard stop, and the longest sleep a stop flag may wait.
std::int64_t Engine::Impl::wake_time(const RunState& run) const {
  const std::int64_t now = now_ns();
  if (run.starts_deferred || !judged.empty()) return now;
  std::int64_t wake_ns = std::min({curl_deadline_ns, now + kMaxWaitNs, deadlines.next_ns(),
                                   run.source->cancel_at_ns()});
  if (run.next_due && in_flight < concurrency) wake_ns = std::min(wake_ns, *run.next_due);
  if (run.stopping) wake_ns = std::min(wake_ns, run.grace_deadline_ns);
  return wake_ns;
}

// Sleeps until `wake_ns` or a socket is ready, then hands every ready socket (and curl's due
// timer) to curl and ends the transfers curl finished.
void Engine::Impl::wait_and_dispatch(RunState& run, std::int64_t wake_ns) {
  const std::int64_t now = now_ns();
  const int wait_ms = wake_ns <= now ? 0 : -1;  // -1: the timer wakes the loop
  if (wait_ms != 0) arm_timer(wake_ns);
  if (run.turn_start_ns != 0) {
    const std::int64_t turn_ns = now - run.turn_start_ns;
    ++stats.loop_turns;
    if (turn_ns > kSlowTurnNs) ++stats.slow_turns;
    stats.longest_turn_ns = std::max(stats.longest_turn_ns, turn_ns);
  }
  epoll_event events[kMaxEventsPerWait];
  const int ready = epoll_wait(epoll_fd.get(), events, kMaxEventsPerWait, wait_ms);
  if (ready < 0 && errno != EINTR) {
    throw std::runtime_error(std::string("epoll_wait: ") + std::strerror(errno));
  }
  run.turn_start_ns = now_ns();
  for (int i = 0; i < ready; ++i) {
    if (events[i].data.fd == timer_fd.get()) {
      std::uint64_t expirations = 0;
      (void)!read(timer_fd.get(), &expirations, sizeof expirations);
      timer_armed_ns = -1;
      continue;
    }
    int flags = 0;
    if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) flags |= CURL_CSELECT_IN;
    if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
    if (events[i].events & EPOLLERR) flags |= CURL_CSELECT_ERR;
    socket_action(events[i].data.fd, flags);
  }
  if (now_ns() >= curl_deadline_ns) {
    curl_deadline_ns = kNoDeadline;  // curl re-arms it through on_timer if still needed
    socket_action(CURL_SOCKET_TIMEOUT, 0);
  }
  drain_finished();
}

void Engine::Impl::arm_timer(std::int64_t wake_ns) {
  const std::int64_t now = now_ns();
  // A later wake than the armed one can wait: the earlier wake just turns the loop once.
  if (timer_armed_ns >= 0 && timer_armed_ns > now && wake_ns >= timer_armed_ns) return;
  // steady_clock is CLOCK_MONOTONIC on Linux, so its nanoseconds arm the timer directly.
  itimerspec spec{};
  spec.it_value.tv_sec = wake_ns / kNsPerSec;
  spec.it_value.tv_nsec = wake_ns % kNsPerSec;
  timerfd_settime(timer_fd.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
  timer_armed_ns = wake_ns;
}

// The TTFT and stall limits are bench's own (curl has no notion of a first token, and its
// low-speed limit counts whole seconds). Each is a timer; a stall timer that finds newer bytes
// moves itself to the silence's new end instead of firing. Every deadline due by `now` is
// judged at `now` (no socket is read in between, so none can have changed since) and ends
// then: tearing down a thousand connections that timed out together takes milliseconds, which
// are the engine's work, not the request's.
// A transfer has at most two live entries (first token, stall), so once the heap holds twice
// that many a slot, most of it is stale: dropping it then costs O(1) a push, amortized.
void Engine::Impl::push_deadline(const Deadline& deadline) {
  deadlines.push(deadline);
  if (deadlines.size() <= 4 * transfers.size() + 64) return;
  deadlines.drop([this](const Deadline& entry) { return !is_live(entry); });
}

// Whether the transfer a deadline was set for is still the one in its slot, and in flight.
bool Engine::Impl::is_live(const Deadline& deadline) const {
  const Transfer& transfer = *transfers[deadline.slot];
  return transfer.in_flight && !transfer.judged && transfer.serial == deadline.transfer_serial;
}

void Engine::Impl::fire_deadlines(std::int64_t now) {
  while (deadlines.next_ns() <= now) {
    const Deadline deadline = deadlines.pop();
    if (!is_live(deadline)) continue;
    Transfer& transfer = *transfers[deadline.slot];
    if (deadline.kind == DeadlineKind::first_token) {
      if (transfer.request.handler->first_token_seen()) continue;
      judge(transfer, metrics::ErrorClass::ttft_timeout,
            "no generated text within " + std::to_string(options.ttft_timeout_ms) + " ms", now);
      continue;
    }
    const std::int64_t silence_end_ns =
        transfer.last_byte_ns + options.stall_timeout_ms * kNsPerMs;
    if (silence_end_ns > now) {
      push_deadline({silence_end_ns, transfer.serial, transfer.slot, DeadlineKind::stall});
      continue;
    }
    judge(transfer, metrics::ErrorClass::stall,
          "no byte for " + std::to_string(options.stall_timeout_ms) + " ms mid-stream", now);
  }
}

// Ends, a few a turn, the transfers deadlines judged: their records carry the time each was
// judged; the teardown (closing the connection, the handler's record) is the engine's work.
void Engine::Impl::tear_down_judged() {
  for (int ended = 0; ended < kMaxTeardownsPerTurn && !judged.empty();) {
    const auto [transfer, serial] = judged.front();
    judged.pop_front();
    // curl may have finished it meanwhile (finish_transfer then ended it as judged).
    if (transfer->serial != serial || !transfer->judged) continue;
    end_judged(*transfer);
    ++ended;
  }
}

// --- Transfers ---------------------------------------------------------------------------

Engine::Impl::Transfer& Engine::Impl::acquire_transfer() {
  if (!idle.empty()) {
    Transfer* transfer = idle.back();
    idle.pop_back();
    return *transfer;
  }
  auto transfer = std::make_unique<Transfer>();
  transfer->easy.reset(curl_easy_init());
  if (!transfer->easy) throw std::runtime_error("curl_easy_init failed");
  transfer->engine = this;
  transfer->slot = static_cast<std::uint32_t>(transfers.size());
  CURL* easy = transfer->easy.get();
  curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Impl::on_write);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
  set_persistent_options(easy, options);
  transfers.push_back(std::move(transfer));
  return *transfers.back();
}

curl_slist* Engine::Impl::header_list_for(const std::vector<std::string>* lines) {
  auto found = header_lists.find(lines);
  if (found != header_lists.end()) return found->second.get();
  std::vector<std::string> all = lines != nullptr ? *lines : std::vector<std::string>{};
  // libcurl adds "Expect: 100-continue" to large POSTs and then waits for the server's go-ahead
  // up to CURLOPT_EXPECT_100_TIMEOUT_MS (default 1000 ms, curl's
  // docs/libcurl/opts/CURLOPT_EXPECT_100_TIMEOUT_MS.md); an empty Expect header turns that off.
  all.emplace_back("Expect:");
  HeaderList list = make_header_list(all);
  curl_slist* raw = list.get();
  header_lists.emplace(lines, std::move(list));
  return raw;
}

void Engine::Impl::start_transfer(Transfer& transfer) {
  CURL* easy = transfer.easy.get();
  const TransferRequest& request = transfer.request;
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  if (request.body.empty()) {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  } else {
    // POSTFIELDS is not copied: the body lives in the Transfer until the transfer ends.
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, header_list_for(request.headers));
  transfer.serial = next_serial++;
  transfer.in_flight = true;
  transfer.headers_seen = false;
  transfer.aborted_by_handler = false;
  transfer.body_bytes = 0;
  transfer.sent_ns = now_ns();
  transfer.last_byte_ns = transfer.sent_ns;
  if (options.ttft_timeout_ms > 0) {
    push_deadline({transfer.sent_ns + options.ttft_timeout_ms * kNsPerMs, transfer.serial,
                    transfer.slot, DeadlineKind::first_token});
  }
  const CURLMcode code = curl_multi_add_handle(multi.get(), easy);
  if (code != CURLM_OK) {
    throw std::runtime_error(std::string("curl_multi_add_handle: ") + curl_multi_strerror(code));
  }
  ++in_flight;
  ++stats.started;
}

void Engine::Impl::deliver_headers(Transfer& transfer) {
  transfer.headers_seen = true;
  long status = 0;
  curl_easy_getinfo(transfer.easy.get(), CURLINFO_RESPONSE_CODE, &status);
  const char* content_type = nullptr;
  curl_easy_getinfo(transfer.easy.get(), CURLINFO_CONTENT_TYPE, &content_type);
  transfer.request.handler->on_headers(status, content_type != nullptr ? content_type : "");
}

// A transfer curl finished: how it ended and what its connection cost, from curl's own record.
void Engine::Impl::finish_transfer(Transfer& transfer, CURLcode result) {
  if (transfer.judged) {  // a deadline decided first
    end_judged(transfer);
    return;
  }
  CURL* easy = transfer.easy.get();
  TransferEnd end;
  end.end_ns = now_ns();
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  if (!transfer.headers_seen && status > 0) deliver_headers(transfer);
  curl_off_t connect_time_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_time_us);
  curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &end.new_connections);
  stats.connections_opened += end.new_connections;
  curl_off_t app_connect_us = 0;  // TLS handshake done; 0 for plain http
  curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &app_connect_us);
  if (end.new_connections > 0) {
    end.connect_ns = std::max(connect_time_us, app_connect_us) * 1000;
  }
  curl_off_t start_transfer_us = 0;
  curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &start_transfer_us);
  if (status > 0 && start_transfer_us > 0) end.response_start_ns = start_transfer_us * 1000;
  const bool connected = connect_time_us > 0 || status > 0;
  end.error = classify_curl_result(result, connected, transfer.body_bytes > 0);
  if (result != CURLE_OK) {
    end.message = transfer.aborted_by_handler ? "aborted by bench" : curl_easy_strerror(result);
  }
  end_transfer(transfer, end);
}

// Ends a transfer before curl does (a deadline, cancellation): leaving the multi handle closes
// its connection, and its handler hears the reason.
void Engine::Impl::end_early(Transfer& transfer, metrics::ErrorClass error, std::string message,
                             std::int64_t end_ns) {
  TransferEnd end;
  end.error = error;
  end.message = std::move(message);
  end.end_ns = end_ns;
  end_transfer(transfer, end);
}

// A deadline's verdict, at its time: how the transfer ends is decided now, at `end_ns`; it is
// torn down by tear_down_judged (or by curl finishing it first).
void Engine::Impl::judge(Transfer& transfer, metrics::ErrorClass error, std::string message,
                         std::int64_t end_ns) {
  TransferEnd& end = transfer.judged.emplace();
  end.error = error;
  end.message = std::move(message);
  end.end_ns = end_ns;
  judged.emplace_back(&transfer, transfer.serial);
}

void Engine::Impl::end_judged(Transfer& transfer) {
  const TransferEnd end = std::move(*transfer.judged);
  transfer.judged.reset();
  end_transfer(transfer, end);
}

// The one way every transfer ends, whatever ended it: its slot is freed, its body released and
// its handler told, last.
void Engine::Impl::end_transfer(Transfer& transfer, const TransferEnd& end) {
  curl_multi_remove_handle(multi.get(), transfer.easy.get());
  transfer.in_flight = false;
  --in_flight;
  ++stats.finished;
  free_slots.give_back(end.end_ns);
  TransferHandler* handler = transfer.request.handler;
  transfer.request = TransferRequest{};  // release the body now
  idle.push_back(&transfer);
  handler->on_end(end);
}

void Engine::Impl::drain_finished() {
  int pending = 0;
  while (CURLMsg* message = curl_multi_info_read(multi.get(), &pending)) {
    if (message->msg != CURLMSG_DONE) continue;
    Transfer* transfer = nullptr;
    curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
    // Copy the result before finish_transfer: removing the handle invalidates `message`.
    const CURLcode result = message->data.result;
    finish_transfer(*transfer, result);
  }
}

void Engine::Impl::cancel_in_flight(const std::string& why) {
  for (const auto& transfer : transfers) {
    if (!transfer->in_flight) continue;
    if (transfer->judged) {  // its deadline fired before the cancellation
      end_judged(*transfer);
      continue;
    }
    ++stats.cancelled;
    end_early(*transfer, metrics::ErrorClass::cancelled, why, now_ns());
  }
}

void Engine::Impl::socket_action(curl_socket_t fd, int flags) {
  int running = 0;
  read_stamp_ns = now_ns();
  const CURLMcode code = curl_multi_socket_action(multi.get(), fd, flags, &running);
  if (code != CURLM_OK && code != CURLM_BAD_SOCKET) {
    throw std::runtime_error(std::string("curl_multi_socket_action: ") +
                             curl_multi_strerror(code));
  }
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  if (impl_->options.concurrency < 1) throw std::invalid_argument("concurrency must be >= 1");
}

Engine::~Engine() {
  // Handles still attached (after an exception) must leave the multi before it is cleaned up.
  for (const auto& transfer : impl_->transfers) {
    if (transfer->in_flight) curl_multi_remove_handle(impl_->multi.get(), transfer->easy.get());
  }
}

EngineStats Engine::run(RequestSource& source, const std::atomic<bool>* stop) {
  return impl_->run(source, stop, impl_->options.concurrency);
}

PreconnectStats Engine::preconnect(const std::string& url, const std::vector<std::string>* headers,
                                   std::int64_t count) {
  PreconnectStats out;
  out.requested = count;
  if (count <= 0) return out;
  impl_->keep_connections(std::max(count, impl_->options.concurrency));
  const std::int64_t start_ns = now_ns();
  // Long enough to connect and get a short answer; a server slower than that to list its
  // models leaves the run to open its own connections.
  const std::int64_t cancel_at_ns =
      start_ns + (impl_->options.connect_timeout_ms + kPreconnectAnswerMs) * kNsPerMs;
  PreconnectBurst burst(url, headers, count, cancel_at_ns);
  const EngineStats stats = impl_->run(burst, nullptr, count);
  out.took_ns = now_ns() - start_ns;
  out.opened = stats.connections_opened;
  out.failed = burst.failed();  // cancelled ones included
  return out;
}

}  // namespace bench::engine
