#pragma once
// The engine's insides (engine.hpp's Engine::Impl), shared by its two files: the event loop and
// its timers (engine.cpp) and the transfers it starts and ends (transfers.cpp). Internal to
// the engine module.
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <curl/curl.h>

#include "bench/engine/curl_handles.hpp"
#include "bench/engine/engine.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/stop_flag.hpp"
#include "bench/util/unique_fd.hpp"
#include "connection_watch.hpp"
#include "deadline_queue.hpp"
#include "free_slots.hpp"

namespace bench::engine {

// A deadline that never comes (curl has no timer armed, no stop is pending).
inline constexpr std::int64_t kNoDeadline = INT64_MAX;

struct Engine::Impl {
  // One reusable transfer slot: an easy handle (options persist across requests, so
  // connections and settings are reused) plus the request it currently carries.
  struct Transfer {
    EasyHandle easy;
    TransferRequest request;
    std::uint32_t slot = 0;    // index in `transfers`
    std::uint64_t serial = 0;  // which start this is; stale deadlines carry an older one
    bool in_flight = false;
    bool headers_seen = false;
    bool aborted_by_handler = false;
    std::int64_t body_bytes = 0;
    std::int64_t sent_ns = 0;            // when it was handed to curl
    std::int64_t last_byte_ns = 0;       // stamp of the latest body bytes
    curl_socket_t fd = CURL_SOCKET_BAD;  // the socket curl last watched for it
    bool response_started = false;  // a header line of the response came (curl's header callback)
    // Attempts lost to a connection the server had closed before answering: sent again by the
    // engine (resends) or by curl itself (seen as lost_attempts, from the closes).
    int resends = 0;
    int lost_attempts = 0;
    std::int64_t attempt_start_ns = 0;  // when the current attempt was handed to curl
    int slot_connect_failures = 0;      // its concurrency slot's failures to connect, in a row
    // How a deadline ended it, set when the deadline fired; the transfer is torn down (and its
    // handler told) in a later step, with this end and its time. Bytes after it are dropped.
    std::optional<TransferEnd> judged;
    PrependedLine own_header;  // the request's own_header ahead of the shared lines; or empty
    Impl* engine = nullptr;
  };

  // What one call of run() decides as it goes.
  struct RunState {
    RequestSource* source = nullptr;
    const StopFlag* stop = nullptr;
    bool stopping = false;
    bool forced = false;  // a forced quit: the grace period ended at once
    std::int64_t grace_deadline_ns = kNoDeadline;
    std::int64_t turn_start_ns = 0;        // when the current turn of the loop began; 0 = none yet
    bool opening_fill = true;              // the first pass of starts: no connection of the run yet
    bool starts_deferred = false;          // due requests left for the next turn, after the reads
    std::optional<std::int64_t> next_due;  // the next request's due time, while a slot is free
  };

  explicit Impl(EngineOptions opts);

  EngineStats run(RequestSource& source, const StopFlag* stop, std::int64_t slots);

  // libcurl callbacks (C ABI, must not throw).
  static int on_socket(CURL* easy, curl_socket_t fd, int what, void* userp, void* socketp);
  static int on_timer(CURLM* multi, long timeout_ms, void* userp);
  static size_t on_write(char* data, size_t size, size_t count, void* userp);
  static size_t on_header(char* data, size_t size, size_t count, void* userp);
  static int on_close_socket(void* clientp, curl_socket_t fd);

  // The loop's steps, in the order a turn takes them.
  void observe_stop(RunState& run);
  void start_due_requests(RunState& run);
  void start_next(RequestSource& source);
  bool slot_free_now();
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
  void count_timer_wake(std::int64_t late_ns);
  void deliver_headers(Transfer& transfer);
  void finish_transfer(Transfer& transfer, CURLcode result);
  bool resend_on_new_connection(Transfer& transfer, CURLcode result, long status,
                                long new_connections);
  void note_socket(Transfer& transfer, curl_socket_t fd);
  void forget_socket(Transfer& transfer);
  void note_connection_outcome(Transfer& transfer, TransferEnd& end, long status);
  void end_transfer(Transfer& transfer, const TransferEnd& end);
  void end_unsent(TransferRequest request, FreeSlot slot);
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
  // Before `multi`: curl closes its pooled connections (on_close_socket) when the multi handle
  // is cleaned up, and the watch must still be there. `shutting_down` then keeps the callback
  // away from the transfers, which are gone by that time.
  ConnectionWatch connection_watch;
  std::vector<Transfer*> socket_owner;  // by fd: the transfer whose request uses it, if any
  bool shutting_down = false;
  // CURLOPT_MAXAGE_CONN: curl reuses no pooled connection whose whole seconds idle exceed it
  // (lib/url.c compares idle_ms / 1000 > maxage), so one idle `idle_retire_s + 1` s or more is
  // retired. 3: retired from 4 s idle, under the 5 s after which uvicorn (vLLM, SGLang) and
  // Node.js close an idle keep-alive connection; lowered to retire a second under a server's own
  // `Keep-Alive: timeout=N` (N - 2, at least 0: from 1 s idle).
  long idle_retire_s = 3;
  MultiHandle multi;
  UniqueFd epoll_fd;
  // Wakes the loop at the next deadline with nanosecond precision: epoll_wait counts whole
  // milliseconds, which would send scheduled requests up to 1 ms late (AIPerf measured the same
  // quantisation in event-loop timers).
  UniqueFd timer_fd;
  std::int64_t timer_armed_ns = -1;                  // what timer_fd is armed for; -1 = disarmed
  std::vector<std::unique_ptr<Transfer>> transfers;  // every slot ever made
  std::vector<Transfer*> idle;                       // slots not in flight
  std::map<const std::vector<std::string>*, HeaderList> header_lists;
  FreeSlots free_slots;     // since when each free concurrency slot is free
  DeadlineQueue deadlines;  // first-token and stall limits of transfers
  // Transfers a deadline judged, oldest first, with the serial they were judged under.
  std::deque<std::pair<Transfer*, std::uint64_t>> judged;
  std::int64_t concurrency = 0;  // slots of the current run: options' or a preconnect burst's
  std::int64_t in_flight = 0;
  std::uint64_t next_serial = 1;
  std::int64_t curl_deadline_ns = kNoDeadline;  // from CURLMOPT_TIMERFUNCTION
  std::int64_t read_stamp_ns = 0;  // taken before each socket_action: one stamp per read
  EngineStats stats;
};

}  // namespace bench::engine
