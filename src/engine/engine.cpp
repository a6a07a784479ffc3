#include "bench/engine/engine.hpp"

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine_impl.hpp"
#include "preconnect_burst.hpp"

namespace bench::engine {

namespace {

// The loop wakes at least this often so a stop request is seen promptly.
constexpr std::int64_t kMaxWaitNs = 100 * kNsPerMs;
constexpr int kMaxEventsPerWait = 256;
constexpr std::int64_t kSlowTurnNs = kNsPerMs;
// A timer wake this late means the host did not run the loop when it was due.
constexpr std::int64_t kLateWakeNs = kNsPerMs;
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
int Engine::Impl::on_socket(CURL* easy, curl_socket_t fd, int what, void* userp, void* socketp) {
  auto* self = static_cast<Impl*>(userp);
  if (easy != nullptr && what != CURL_POLL_REMOVE) {
    Transfer* transfer = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &transfer);
    if (transfer != nullptr) self->note_socket(*transfer, fd);
  }
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

// --- The loop ---------------------------------------------------------------------------

EngineStats Engine::Impl::run(RequestSource& source, const StopFlag* stop, std::int64_t slots) {
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
      cancel_in_flight(
          "cancelled by bench: its source ended the run (--duration-hard's end, or "
          "--unreachable-timeout)");
      break;
    }
    if (!run.stopping) start_due_requests(run);
    if (in_flight == 0 && (run.stopping || !run.next_due)) break;
    if (run.stopping && now_ns() >= run.grace_deadline_ns) {
      cancel_in_flight(run.forced ? "cancelled by bench at a forced quit (a second stop signal)"
                                  : "cancelled by bench after the stop grace period");
      break;
    }
    wait_and_dispatch(run, wake_time(run));
    fire_deadlines(now_ns());
    tear_down_judged();
  }
  stats.server_prompt_closes = connection_watch.prompt_closes();
  stats.reuse_stopped_after_closes =
      connection_watch.reuse_stopped() ? ConnectionWatch::kClosesToStopReuse : 0;
  stats.reuse_stopped_close_ns = connection_watch.stopping_close_idle_ns();
  return stats;
}

// A stop starts the grace period; a forced quit, seen at the latest one wait (kMaxWaitNs) after
// it was asked, ends it at once.
void Engine::Impl::observe_stop(RunState& run) {
  if (run.stop == nullptr || run.forced) return;
  if (!run.stopping && run.stop->load(std::memory_order_relaxed)) {
    run.stopping = true;
    run.next_due.reset();
    stats.stopped = true;
    run.grace_deadline_ns = now_ns() + options.grace_ms * kNsPerMs;
  }
  if (run.stopping && run.stop->forced(std::memory_order_relaxed)) {
    run.forced = true;
    run.grace_deadline_ns = now_ns();
  }
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
  while (slot_free_now() && (run.next_due = run.source->next_due_ns()) &&
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
  // A slot still cooling after a connection failure is not taken, but the next due time is
  // still asked for: the loop goes on while one cools, even with nothing in flight.
  if (in_flight < concurrency && !run.next_due) run.next_due = run.source->next_due_ns();
}

// Whether a concurrency slot is free now: not in flight, and not cooling after a connection
// failure (EngineOptions::connect_backoff_max_ms).
bool Engine::Impl::slot_free_now() {
  return in_flight < concurrency && free_slots.any_free(now_ns());
}

void Engine::Impl::start_next(RequestSource& source) {
  const FreeSlot slot = free_slots.take();
  TransferRequest request = source.take_next(slot.since_ns, now_ns());
  if (request.unsent) {
    end_unsent(std::move(request), slot);
    return;
  }
  Transfer& transfer = acquire_transfer();
  transfer.request = std::move(request);
  transfer.slot_connect_failures = slot.connect_failures;
  start_transfer(transfer);
}

// The earliest of: a due request (while a slot is free), curl's timer, a transfer's deadline,
// the end of a stop's grace period, the hard stop, and the longest sleep a stop flag may wait.
// A due request whose slots all cool after connection failures waits for the first to cool.
std::int64_t Engine::Impl::wake_time(const RunState& run) const {
  const std::int64_t now = now_ns();
  if (run.starts_deferred || !judged.empty()) return now;
  std::int64_t wake_ns = std::min(
      {curl_deadline_ns, now + kMaxWaitNs, deadlines.next_ns(), run.source->cancel_at_ns()});
  if (run.next_due && in_flight < concurrency) {
    wake_ns = std::min(wake_ns, std::max(*run.next_due, free_slots.first_free_ns()));
  }
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
  const std::int64_t sleeps_until_ns = wait_ms != 0 ? timer_armed_ns : -1;
  epoll_event events[kMaxEventsPerWait];
  const int ready = epoll_wait(epoll_fd.get(), events, kMaxEventsPerWait, wait_ms);
  if (ready < 0 && errno != EINTR) {
    throw std::runtime_error(std::string("epoll_wait: ") + std::strerror(errno));
  }
  run.turn_start_ns = now_ns();
  // Due by its timer, the loop ran this late: whatever woke it (the timer, a socket, or an
  // EINTR after its process was stopped and continued), the host did not run it on time.
  if (sleeps_until_ns >= 0 && run.turn_start_ns >= sleeps_until_ns) {
    count_timer_wake(run.turn_start_ns - sleeps_until_ns);
  }
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

// A wake from a sleep the timer ended: how long after the timer's time the loop ran again.
void Engine::Impl::count_timer_wake(std::int64_t late_ns) {
  ++stats.timer_wakes;
  if (late_ns > kLateWakeNs) ++stats.late_timer_wakes;
  stats.latest_timer_wake_ns = std::max(stats.latest_timer_wake_ns, late_ns);
}

void Engine::Impl::arm_timer(std::int64_t wake_ns) {
  const std::int64_t now = now_ns();
  // A later wake than the armed one can wait: the earlier wake just turns the loop once.
  if (timer_armed_ns >= 0 && timer_armed_ns > now && wake_ns >= timer_armed_ns) return;
  // steady_clock is CLOCK_MONOTONIC on Linux, so its nanoseconds arm the timer directly.
  itimerspec spec{};
  spec.it_value = ns_to_timespec(wake_ns);
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
    const std::int64_t silence_end_ns = transfer.last_byte_ns + options.stall_timeout_ms * kNsPerMs;
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

void Engine::Impl::socket_action(curl_socket_t fd, int flags) {
  int running = 0;
  read_stamp_ns = now_ns();
  const CURLMcode code = curl_multi_socket_action(multi.get(), fd, flags, &running);
  if (code != CURLM_OK && code != CURLM_BAD_SOCKET) {
    throw std::runtime_error(std::string("curl_multi_socket_action: ") + curl_multi_strerror(code));
  }
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  if (impl_->options.concurrency < 1) throw std::invalid_argument("concurrency must be >= 1");
}

Engine::~Engine() {
  impl_->shutting_down = true;
  // Handles still attached (after an exception) must leave the multi before it is cleaned up.
  for (const auto& transfer : impl_->transfers) {
    if (transfer->in_flight) curl_multi_remove_handle(impl_->multi.get(), transfer->easy.get());
  }
}

EngineStats Engine::run(RequestSource& source, const StopFlag* stop) {
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
