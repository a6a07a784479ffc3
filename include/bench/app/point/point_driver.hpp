#pragma once
// What a point's client thread hands its engine: a driver, the glue between the transport and
// the OpenAI protocol. It gives the engine request after request when each is due, turns each
// response into a RequestRecord through a StreamReader, and gives the finished record to a
// RecordSink. One slot (reader + record) per request in flight, reused, so nothing grows with the
// run. Two modes, one class each over this shared part: RequestDriver (one request per prompt,
// request_driver.hpp) and SessionDriver (--multi-turn's sessions, session_driver.hpp);
// make_point_driver picks the plan's.
//
// Which requests: indices first, first + stride, first + 2 x stride, ... (one driver per client
// thread).
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/app/point/early_stop.hpp"
#include "bench/app/point/live_counters.hpp"
#include "bench/app/point/prompt_feed.hpp"
#include "bench/app/point/server_spread.hpp"
#include "bench/app/point/session_scheduler.hpp"
#include "bench/app/point/unreachable_watch.hpp"
#include "bench/engine/engine.hpp"
#include "bench/images/image_spec.hpp"
#include "bench/live/feed.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/redact.hpp"
#include "bench/util/trace_context.hpp"

namespace bench::app {

/// Receives every request as it ends, on the engine's thread. The record is reused afterwards.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void on_record(const metrics::RequestRecord& record) = 0;
  /// --multi-turn: a session ended (after the record of its last turn).
  virtual void on_session(const SessionEnd& /*session*/) {}
};

inline constexpr std::int64_t kNoLimitNs = std::numeric_limits<std::int64_t>::max();

// What a driver runs, grouped by who reads it: the groups both modes read (where each request
// goes, what its body holds, the point's clock, the watchers), then each mode's own: one
// request per prompt, or --multi-turn's sessions. The pointers are the point's, shared by its
// drivers, and outlive them.
struct DriverPlan {
  // Both modes: where each request goes and how its response is read.
  struct Target {
    // The endpoint's full URL on each server (--base-url repeated; one: every request's), and
    // which of them each request goes to (ServerSpread::server_of_request; null: the first).
    std::vector<std::string> urls;
    const ServerSpread* spread = nullptr;
    const std::vector<std::string>* headers = nullptr;  // every request's header lines
    // Send a W3C traceparent header with every request, its ids kept in the record (util/
    // trace_context.hpp); false: --no-traceparent, or the user's --header sets one.
    bool traceparent = false;
    protocol::RequestOptions request;  // body shape (max_tokens comes per prompt)
    protocol::StreamLimits limits;
    // Counts the output of a response without usage (a --tokenizer file); null: the chunk
    // estimate.
    const tokenizer::Tokenizer* output_counter = nullptr;
    // Hides the credentials in the server's text of every record before anyone sees it (the
    // error message, finish_reason, response id); null: nothing to hide.
    const util::Redactor* redactor = nullptr;
  };
  // Both modes: what each request's body is made from beside its prompt or history.
  struct Bodies {
    PromptPick prompts;  // the source, the point's stream, --reuse-prompts
    // --images-per-request: random images added to each chat body as it is built, off the loop
    // (per_request 0: none); each request's are fresh, drawn from the run's nonce, the prompt
    // stream and the request number.
    images::ImageSpec images;
    std::uint64_t image_nonce = 0;
    // The most bytes of image data URLs one of the dataset's requests carries (its row's image
    // files, workload/dataset_images.hpp); 0: none. Bounds how many bodies are built ahead.
    std::uint64_t largest_image_url_bytes = 0;
    // max_tokens of every request when --extra-body sets it (what is sent, and so reported).
    std::optional<std::int64_t> output_len_override;
    std::size_t lookahead = 64;  // request bodies made ahead at most
    // Requests from this one on are not built ahead (FeedPlan::build_ahead_below).
    std::uint64_t build_ahead_below = std::numeric_limits<std::uint64_t>::max();
  };
  // Both modes: the point's clock and the end of its measured phase.
  struct Timing {
    std::int64_t epoch_ns = 0;  // steady clock: record times and schedule offsets count from it
    // The steady clock (ns) the closed loop and the turns read to stop at send_until_ns and at
    // --duration's end: bench::now_ns, or a test's own. Every other time comes from the engine.
    std::function<std::int64_t()> clock_ns = now_ns;
    // --duration: the measured phase lasts this long from its first request (0 = no limit): no
    // request starts after it, and with cancel_at_duration_end those in flight are cancelled.
    std::int64_t measured_duration_ns = 0;
    bool cancel_at_duration_end = false;
  };
  // Both modes: who is told of each request, and what may stop the point; null: none.
  struct Watchers {
    LiveCounters* live = nullptr;  // progress counters to bump
    // bench's own live figures (--metrics-listen, --live-jsonl): told of each request sent and
    // of each record when it ends, warm-up phases too.
    live::Feed* feed = nullptr;
    // Watches the first requests to end; once it says stop, no request starts any more.
    EarlyStop* early_stop = nullptr;
    // Watches whether the server can be reached; once it gives up, no request starts any more
    // and those in flight are cancelled.
    UnreachableWatch* unreachable = nullptr;
  };
  // One request per prompt (no --multi-turn): when each is due, and which are warm-up.
  struct PerPrompt {
    // Open loop: request i is due at its offset in this schedule after the epoch, and there
    // are schedule->size() requests in all. Null: closed loop, every request due as soon as a
    // slot is free (app::open_loop decides which).
    const schedule::OpenLoopSchedule* schedule = nullptr;
    std::size_t warmup_requests = 0;  // requests with a lower index are warm-up
    // Requests from this index on are not sent: a point run in phases (its warm-up drained
    // before its measured requests, for --server-metrics) sends [first, end_request) in each.
    std::size_t end_request = std::numeric_limits<std::size_t>::max();
    std::int64_t warmup_until_ns = 0;  // requests sent before this (epoch-relative) are warm-up
    // Closed loop: no request starts at or after this (epoch-relative) time; a warm-up by time
    // run as a phase of its own stops sending at its end and drains.
    std::int64_t send_until_ns = std::numeric_limits<std::int64_t>::max();
    // Closed loop: stop after this many measured requests of this driver have been sent.
    std::size_t measured_requests = std::numeric_limits<std::size_t>::max();
  };

  Target target;
  Bodies bodies;
  Timing timing;
  Watchers watchers;
  std::size_t first = 0;   // this driver's first request index
  std::size_t stride = 1;  // and the step to its next one
  PerPrompt per_prompt;    // read without --multi-turn only
  // --multi-turn: sessions of turns in place of one request per prompt (session_scheduler.hpp;
  // first, stride and open_at_once are set per thread). Each turn's intended start is when it
  // became due. nullopt: one request per prompt.
  std::optional<SessionPlan> sessions;
  // --session-header NAME: sent on every turn with the session's id; empty: none.
  std::string session_header;
};

/// What both modes share: the slots, a request's end, tracing, the spread over servers and
/// the end of the measured phase; and what run_point asks of a driver of either mode.
class PointDriver : public engine::RequestSource {
 public:
  ~PointDriver() override;
  PointDriver(const PointDriver&) = delete;
  PointDriver& operator=(const PointDriver&) = delete;

  std::int64_t cancel_at_ns() const override;

  /// Sets the epoch (steady ns) when the driver was built before the run's start was known.
  void set_epoch(std::int64_t epoch_ns) { plan_.timing.epoch_ns = epoch_ns; }

  std::size_t sent() const { return sent_; }
  std::size_t measured_sent() const { return measured_sent_; }
  /// Request bodies (or, in sessions, their images) the loop had to make itself because the
  /// producer making them ahead was behind.
  virtual std::uint64_t bodies_built_on_loop() const = 0;
  /// --multi-turn: the sessions still open, cut short by the run's end; empty otherwise.
  virtual std::vector<SessionEnd> open_sessions() const { return {}; }

 protected:
  class Slot;
  PointDriver(DriverPlan plan, RecordSink& sink);

  // Whether a watcher has stopped the point: no request starts any more.
  bool stopped() const;
  Slot& acquire_slot();
  // Which of plan_.target.urls the record's request went to.
  std::size_t server_of(const metrics::RequestRecord& record) const;
  // Epoch-relative end of the measured phase (--duration), or kNoLimitNs while unknown/none.
  std::int64_t measured_end_ns() const;
  // The live counters and feed told of a request sent.
  void count_started();
  // With plan_.target.traceparent: a new trace context into `record` and its header line into
  // `request` (none for a request that is not sent).
  void trace(metrics::RequestRecord& record, engine::TransferRequest& request);
  // A turn's request has ended (its record already with the sink): SessionDriver tells its
  // session; one request per prompt has no turns.
  virtual void turn_ended(const TurnToSend& /*turn*/, TurnOutcome /*outcome*/, TurnReply /*reply*/,
                          std::int64_t /*end_ns*/) {}

  DriverPlan plan_;
  RecordSink& sink_;
  std::size_t sent_ = 0;
  std::size_t measured_sent_ = 0;
  // Epoch-relative start of the measured phase: an open loop knows it from its schedule, the
  // others when they send their first measured request. -1 until known.
  std::int64_t measured_start_ns_ = -1;

 private:
  void release(Slot* slot);

  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> idle_slots_;
  util::TraceIds trace_ids_;
};

/// The driver of the plan's mode: a SessionDriver with plan.sessions, else a RequestDriver.
std::unique_ptr<PointDriver> make_point_driver(DriverPlan plan, RecordSink& sink);

}  // namespace bench::app
