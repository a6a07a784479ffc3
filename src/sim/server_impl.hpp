#pragma once
// The embedded server's insides, shared by its two source files: sim_server.cpp (the event
// loop, connections, HTTP in and out) and sim_completions.cpp (a completion request from its
// arrival to its last chunk: faults, the generation model, rendering, the truth log).
// Private to src/sim.
#include <sys/socket.h>

#include <atomic>
#include <cstdint>
#include <ctime>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bench/sim/completion_request.hpp"
#include "bench/sim/generation_model.hpp"
#include "bench/sim/http_request.hpp"
#include "bench/sim/metrics_exposition.hpp"
#include "bench/sim/power_model.hpp"
#include "bench/sim/prefix_cache.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/sim/stream_format.hpp"
#include "bench/sim/stream_renderer.hpp"
#include "bench/sim/trace_log.hpp"
#include "bench/util/unique_fd.hpp"
#include "event_loop_fds.hpp"

namespace bench::sim {

struct SimServer::Impl final : private TokenSink {
  struct Connection {
    UniqueFd fd;
    std::uint64_t serial = 0;  // tells a connection from a later one on the same fd number
    std::string in;            // received, not yet parsed
    std::string out;           // rendered, not yet written
    std::size_t out_sent = 0;  // bytes of `out` already written
    StreamId stream = 0;       // the response being generated here; 0 = none
    bool close_after_write = false;
    bool reset_after_write = false;     // close with an RST (SO_LINGER 0) rather than a FIN
    bool closing = false;               // a delayed close is due (close_delay_us); reads stopped
    bool write_armed = false;           // EPOLLOUT is in the interest set
    bool dirty = false;                 // queued in dirty_ for the end-of-turn write
    std::int64_t unstamped_chunks = 0;  // text chunks in `out` whose send time is not yet known
    std::int64_t read_ns = 0;           // when the bytes now in `in` reached the socket (steady ns)
    std::int64_t active_ns = 0;         // the latest read or completed write (steady ns)
    std::unique_ptr<TraceRecord> finished_trace;  // a stream that ended in `out`, not yet written
    bool anthropic_errors = false;  // the request being answered is POST /v1/messages: its
                                    // errors are sent in Anthropic's shape

    std::size_t unsent() const { return out.size() - out_sent; }
  };

  struct Stream {
    int fd = -1;  // its connection
    CompletionRequest request;
    ResponseShape shape;
    std::int64_t target_tokens = 0;      // tokens it will generate
    std::int64_t reasoning_tokens = -1;  // of them, streamed as reasoning; -1 = not reasoning
    bool stopped_by_length = true;       // finish_reason "length" (max_tokens) rather than "stop"
    bool keep_alive = true;
    std::unique_ptr<StreamRenderer> renderer;  // streamed responses
    std::int64_t sent_tokens = 0;              // non-streamed responses: tokens so far
    bool held = false;                         // the model holds it (backpressure or a stall)
    std::int64_t stall_until_ns = 0;           // > 0: held by a stall fault until then
    std::int64_t stall_ns = 0;
    std::int64_t batch_size = 0;             // sequences in the model's latest step that held it
    std::int64_t cached_prompt_tokens = -1;  // served by the prefix cache; -1 = cache off
    std::int64_t miscounted_tokens = 0;  // GET /metrics counts this many tokens too many (fault)
    TraceRecord trace;
  };

  explicit Impl(SimOptions opts);
  ~Impl() override;

  void loop();
  void stop();

  // TokenSink: render the tokens a stream just produced; keep the scheduler's facts.
  bool on_tokens(StreamId id, std::int64_t tokens) override;
  void on_step(StreamId id, const StepFacts& facts) override;

  void accept_connections();
  void close_idle_connections(std::int64_t now);
  void on_connection_event(int fd, std::uint32_t events);
  void read_from(Connection& connection);
  std::int64_t received_ns(const msghdr& message) const;
  void parse_requests(Connection& connection);
  void handle_request(Connection& connection, HttpRequest& request);
  // An API of named events: POST /v1/responses (responses_api.hpp) or POST /v1/messages
  // (messages_api.hpp), read as the chat request it amounts to.
  enum class EventApi { none, responses, messages };
  void start_completion(Connection& connection, const HttpRequest& http, bool chat,
                        EventApi api = EventApi::none);
  Stream new_stream(Connection& connection, CompletionRequest request, const HttpRequest& http,
                    bool chat, StreamId id, const FaultPlan& plan);
  std::int64_t draw_lengths(Stream& stream, bool chat, std::uint64_t request_seed);
  bool refused(Connection& connection, Stream& stream, const FaultPlan& plan,
               std::int64_t max_tokens);
  void accept_stream(Connection& connection, Stream stream, StreamId id, const FaultPlan& plan,
                     std::string_view body, bool chat);
  void begin_streaming(Connection& connection, Stream& stream, StreamId id, const FaultPlan& plan);
  void flush_prefix_cache(Connection& connection, const HttpRequest& request);
  bool answer_tokenizer_route(Connection& connection, const HttpRequest& request);
  void answer_metrics(Connection& connection, const HttpRequest& request);
  void count_ended(const Stream& stream);
  void refuse_completion(Connection& connection, Stream& stream, int status,
                         const std::string& message);
  bool on_whole_response(Stream& stream, Connection& connection, StreamId id, std::int64_t tokens);
  void finish_stream(Connection& connection, StreamId id, std::string_view outcome);
  void end_stalls(std::int64_t now);
  void admit_to_model(StreamId id, std::int64_t at_ns);
  void end_jitters(std::int64_t now);
  void send_simple(Connection& connection, int status, std::string_view content_type,
                   std::string_view body, bool keep_alive);
  void send_error(Connection& connection, int status, std::string_view message, bool keep_alive);
  void mark_dirty(Connection& connection);
  void flush_dirty();
  void flush(Connection& connection);
  bool send_unsent(Connection& connection);
  void on_drained(Connection& connection);
  void set_write_interest(Connection& connection, bool want);
  void close_connection(int fd);
  void close_later(Connection& connection);
  void end_delayed_closes(std::int64_t now);
  void arm_timer();
  Connection* connection_at(int fd);

  using Deadline = std::pair<std::int64_t, StreamId>;  // (steady ns, stream)

  // A stream pauses (backpressure) above this much unsent output, and the connection is dropped
  // above the hard cap: a client that stops reading must not grow the server without bound.
  static constexpr std::size_t kHighWatermarkBytes = 256 << 10;
  static constexpr std::size_t kMaxUnsentBytes = 64 << 20;
  static std::int64_t unix_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

  SimOptions options;
  PromptCounter counter;  // the one rule of prompt_tokens and /tokenize
  EventLoopFds fds;       // the listening socket, its port, and the loop's epoll, timer and wake-up
  std::unique_ptr<GenerationModel> model;
  std::unique_ptr<PrefixCache> prefix_cache;  // nullptr when off
  TraceLog trace;
  std::mt19937_64 rng;
  std::unordered_map<int, std::unique_ptr<Connection>> connections;  // by fd
  std::int64_t next_idle_sweep_ns = kNever;  // keepalive_timeout_s > 0: when to look next
  std::unordered_map<StreamId, Stream> streams;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> stalls;  // may be stale
  // --jitter-ms: streams waiting to be admitted into the model, by when; may be stale.
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> jitters;
  std::vector<std::pair<int, std::uint64_t>> dirty;  // (fd, serial) with output to write
  // --close-delay-us: connections to close, by when, with the serial they were judged under.
  struct DelayedClose {
    std::int64_t at_ns;
    int fd;
    std::uint64_t serial;
    bool operator>(const DelayedClose& other) const { return at_ns > other.at_ns; }
  };
  std::priority_queue<DelayedClose, std::vector<DelayedClose>, std::greater<>> delayed_closes;
  std::vector<std::pair<int, std::uint64_t>> reparse;  // connections whose stream just ended
  std::int64_t wake_ns = 0;               // steady ns at which epoll_wait last returned
  std::int64_t wall_minus_steady_ns = 0;  // CLOCK_REALTIME - CLOCK_MONOTONIC at that wake
  std::uint64_t next_serial = 1;
  StreamId next_stream_id = 1;
  std::string model_json;
  SimCounts counts;  // what GET /metrics says; touched by the loop thread only
  PowerModel power;  // its GPUs' energy and power (DCGM's series); the loop thread's too
  std::atomic<std::uint64_t> served{0};
  std::atomic<bool> stopping{false};
  std::thread thread;
};

}  // namespace bench::sim
