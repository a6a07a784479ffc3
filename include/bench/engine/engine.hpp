#pragma once
// The transport: one libcurl multi handle driven by one epoll event loop (curl's
// multi_socket API, as curl's ephiperfifo.c example does). It sends HTTP requests when a
// RequestSource says they are due and a concurrency slot is free, hands each response's bytes
// to that request's handler stamped with the time of the socket read they came from, and
// reports how each transfer ended. It knows nothing of OpenAI, SSE or JSON.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/error_class.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::engine {

struct EngineOptions {
  std::int64_t concurrency = 1;              // most requests in flight at once (closed loop)
  std::int64_t connect_timeout_ms = 10'000;  // CURLOPT_CONNECTTIMEOUT_MS
  std::int64_t request_timeout_ms = 0;       // whole-request cap, CURLOPT_TIMEOUT_MS; 0 = none
  std::int64_t ttft_timeout_ms = 0;          // send -> handler's first token; 0 = none
  std::int64_t stall_timeout_ms = 0;         // longest silence after the first body byte; 0 = none
  std::int64_t grace_ms = 0;                 // after a stop request: wait this long, then cancel
  // A closed loop's slot whose request could not connect (refused, timed out, no such host)
  // waits before its next request (connect_backoff.hpp): kConnectBackoffFirstMs, doubled after each
  // further failure of that slot in a row, at most this long; a request that connects resets it. A
  // dead server then costs a few requests a second, not tens of thousands. 0 = no wait (an open
  // loop: its arrivals keep their schedule, each one failing fast).
  std::int64_t connect_backoff_max_ms = 0;
  bool insecure = false;    // disable TLS peer/host verification
  std::string cacert_path;  // CA bundle for TLS; empty = system default
};

/// How a transfer ended, from the transport's point of view.
struct TransferEnd {
  metrics::ErrorClass error = metrics::ErrorClass::none;  // none: the response ended normally
  std::string message;                                    // curl's message for a transport failure
  std::int64_t end_ns = 0;       // steady-clock ns when the engine saw the transfer end
  long new_connections = 0;      // connections this transfer had to open (0 = reused one)
  std::int64_t connect_ns = -1;  // start -> connected (TCP, and TLS when https), when it opened
                                 // a connection; -1 when it reused one
  // start -> the response's first byte (its status line and headers): curl's
  // CURLINFO_STARTTRANSFER_TIME_T; -1 when no response came.
  std::int64_t response_start_ns = -1;
  // Times the request was sent again because the server had closed the reused connection it was
  // written on before any byte of a response came (it never read the request): by the engine,
  // or by curl itself. Its timing (send_ns, connect_ns, response_start_ns) counts from the first
  // attempt, so the cost of the lost one stays in the figures.
  int connection_retries = 0;
};

/// Receives one transfer's response, on the engine thread. Must not throw.
class TransferHandler {
 public:
  virtual ~TransferHandler() = default;
  /// Once, before the first body byte (or at the end when the body is empty).
  virtual void on_headers(long http_status, std::string_view content_type) = 0;
  /// Body bytes (after HTTP chunked decoding) and the steady-clock ns of the socket read that
  /// delivered them. Return false to abort the transfer now.
  virtual bool on_body(std::string_view bytes, std::int64_t arrival_ns) = 0;
  /// Exactly once per started transfer, last.
  virtual void on_end(const TransferEnd& end) = 0;
  /// Whether the response has delivered what the handler counts as its first token; the
  /// engine's ttft_timeout applies until it has. The engine does not know what a token is.
  virtual bool first_token_seen() const { return true; }
};

/// One HTTP request to send. POST when body is non-empty, else GET.
struct TransferRequest {
  std::string url;
  std::string body;  // must stay alive until on_end: the engine keeps it
  const std::vector<std::string>* headers = nullptr;  // "Name: value" lines; outlives the run
  TransferHandler* handler = nullptr;                 // outlives the transfer
  // One more "Name: value" line for this request alone (its W3C traceparent); "" none. It costs
  // the request a header list of its own.
  std::string own_header;
  // Set when the source could not make the request (its body could not be built): it is not
  // sent. The engine ends it at once, as it ends any transfer (its slot free again, the
  // handler's on_end called with this end, stamped with the time it was taken); curl never sees
  // it. A failed request is data: the source says so here rather than throwing on the loop.
  std::optional<TransferEnd> unsent;
};

/// Where the engine's work comes from.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  /// Steady-clock ns at which the next request is due, or nullopt when there is none left.
  virtual std::optional<std::int64_t> next_due_ns() = 0;
  /// Takes the next request. `slot_free_ns` is when a concurrency slot became free for it (the
  /// run's start, or the end of the transfer it replaces); `send_ns` is when the engine hands it
  /// to curl. A closed loop's intended start is max(due, slot_free_ns).
  virtual TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) = 0;
  /// Steady-clock ns at which the engine must stop at once: nothing new starts and everything in
  /// flight is cancelled (--duration-hard). May move as the run goes; INT64_MAX = never.
  virtual std::int64_t cancel_at_ns() const { return INT64_MAX; }
};

struct EngineStats {
  // Requests taken from the source: handed to curl, or ended unsent at once. So every one
  // started finishes, and started == finished once run() returns.
  std::int64_t started = 0;
  std::int64_t finished = 0;            // transfers that reached on_end (includes cancelled)
  std::int64_t unsent = 0;              // of started: ended unsent (TransferRequest::unsent)
  std::int64_t cancelled = 0;           // transfers ended by a stop (grace over, or forced)
  std::int64_t connections_opened = 0;  // new TCP connections (reused ones are not counted)
  bool stopped = false;                 // the run was stopped before the source was exhausted
  // Event-loop lag: a turn of the loop (from epoll_wait's return to its next call) is time in
  // which no socket is read, so bytes arriving then are stamped late by up to its length.
  std::int64_t loop_turns = 0;
  std::int64_t slow_turns = 0;  // turns longer than 1 ms
  std::int64_t longest_turn_ns = 0;
  // How late the host ran the loop when its timer woke it from a sleep (timer expiry to the
  // loop running again): time the client could not send or read for reasons of its host's.
  std::int64_t timer_wakes = 0;
  std::int64_t late_timer_wakes = 0;  // of which over 1 ms after their time
  std::int64_t latest_timer_wake_ns = 0;
  // Connections the server closed (engine/connection_watch.hpp): requests sent again after the
  // server closed their reused connection, closes within 1 s of a response, and whether the
  // engine stopped reusing connections for that (with how soon after its response the latest
  // close of the deciding streak was seen: an upper bound).
  std::int64_t connection_retries = 0;
  std::int64_t server_prompt_closes = 0;
  std::int64_t reuse_stopped_after_closes = 0;  // closes in a row that stopped it; 0: never
  std::int64_t reuse_stopped_close_ns = 0;
};

/// What opening connections ahead of a run cost, apart from the run's figures.
struct PreconnectStats {
  std::int64_t requested = 0;  // connections asked for
  std::int64_t opened = 0;     // new connections the engine now keeps for the run
  std::int64_t failed = 0;     // requests of the burst that did not end cleanly
  std::int64_t took_ns = 0;    // the whole burst, first send to last end
};

class Engine {
 public:
  explicit Engine(EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Runs until the source is exhausted and every transfer has ended, or until `stop` becomes
  /// true: then no new request starts, in-flight ones may finish for grace_ms, and the rest are
  /// cancelled (on_end with ErrorClass::cancelled), at once when `stop` is forced; or until the
  /// source's cancel_at_ns(), when it stops at once. Throws std::runtime_error only when the event
  /// loop itself cannot work (epoll or curl multi failure).
  EngineStats run(RequestSource& source, const StopFlag* stop = nullptr);

  /// Opens `count` keep-alive connections before a run, by sending `count` GETs of `url` (a
  /// cheap endpoint such as /v1/models) at once: the connections stay in the engine's pool for
  /// the run that follows, so its opening requests do not pay for TCP (and TLS) set-up inside
  /// their TTFT, and the server does not see a connection storm at the measured start.
  PreconnectStats preconnect(const std::string& url, const std::vector<std::string>* headers,
                             std::int64_t count);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::engine
