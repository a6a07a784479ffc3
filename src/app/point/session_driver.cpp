// --multi-turn: the scheduler's due turns, each built from its session's history as it is sent,
// and each turn's end given back to its session.
#include "bench/app/point/session_driver.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bench/app/point/prompt_body.hpp"
#include "bench/app/point/trace_tree_scheduler.hpp"
#include "bench/images/image_parts.hpp"
#include "bench/util/splitmix64.hpp"
#include "driver_slot.hpp"

namespace bench::app {

namespace {

// Turns' worth of images a session driver keeps made ahead: its opening burst (every session
// starts at once) takes the most; the loop makes any it runs short of, and the self-check says.
constexpr std::size_t kImagesAhead = 32;

// The --session-header value of a session: the same on each of its turns, different for every
// session of the run (and, by the seed, of other runs).
std::string session_id(std::uint64_t seed, std::uint64_t stream, std::uint64_t session) {
  return fmt::format("bench-{:08x}-{}-{}", seed, stream, session);
}

// A turn's body, from the session's history; or, when its text or body cannot be made, none
// and `unsent` says why: the turn then fails and ends its session as any failed turn does.
std::string turn_body(const protocol::RequestOptions& request, const TurnToSend& turn,
                      std::optional<engine::TransferEnd>& unsent) {
  try {
    if (turn.text_error.empty()) {
      return protocol::takes_messages(request.endpoint)
                 ? protocol::build_chat_request_body(request, turn.history->chat_messages())
                 : protocol::build_request_body(request, turn.history->transcript());
    }
    unsent = not_built(turn.text_error);
  } catch (const std::exception& error) {
    unsent = not_built(error.what());
  }
  return {};
}

}  // namespace

SessionDriver::SessionDriver(DriverPlan plan, RecordSink& sink)
    : PointDriver(std::move(plan), sink) {
  SessionPlan sessions = *plan_.sessions;
  if (plan_.bodies.images.enabled()) {
    // Each driver's images from a nonce of its own: threads share the point's stream.
    const std::uint64_t nonce = util::splitmix64_mix(
        images::stream_nonce(plan_.bodies.image_nonce, plan_.bodies.prompts.stream) ^
        util::splitmix64(plan_.first));
    const auto per_turn = static_cast<std::size_t>(plan_.bodies.images.per_request);
    images_ = std::make_unique<ImageFeed>(plan_.bodies.images, nonce, kImagesAhead * per_turn);
    sessions.user_images = [feed = images_.get(), per_turn] { return feed->take(per_turn); };
  }
  if (sessions.trees) {
    sessions_ = std::make_unique<TraceTreeScheduler>(std::move(sessions));
  } else {
    sessions_ = std::make_unique<SessionScheduler>(std::move(sessions));
  }
}

SessionDriver::~SessionDriver() = default;

// A turn is due at its session's due time; while every open session waits on a reply more
// turns are still to come, so the engine hears a time that never comes rather than "none left"
// (its loop ends only when nothing is in flight and nothing is left). No turn starts after
// --duration.
std::optional<std::int64_t> SessionDriver::next_due_ns() {
  if (stopped()) return std::nullopt;
  const std::int64_t end = measured_end_ns();
  if (end != kNoLimitNs && plan_.timing.clock_ns() - plan_.timing.epoch_ns >= end) {
    return std::nullopt;
  }
  const std::optional<std::int64_t> due = sessions_->next_due_ns();
  if (!due || *due == TurnScheduler::kAwaitingReply) return due;
  return plan_.timing.epoch_ns + *due;
}

// The session's whole history, built on the loop: it holds the reply that has just ended.
engine::TransferRequest SessionDriver::take_next(std::int64_t slot_free_ns, std::int64_t send_ns) {
  const TurnToSend turn = sessions_->take(send_ns - plan_.timing.epoch_ns);
  protocol::RequestOptions request = plan_.target.request;
  request.max_tokens = plan_.bodies.output_len_override.value_or(turn.user->output_len);
  request.stream = sent_streamed(turn.stream, plan_.target.request.stream);
  std::optional<engine::TransferEnd> unsent;
  std::string body = turn_body(request, turn, unsent);
  sessions_->body_made(turn);
  Slot& slot = acquire_slot();
  metrics::RequestRecord& record = slot.begin(request.stream);
  slot.begin_turn(turn);
  record.index = plan_.first + sent_ * plan_.stride;
  record.session = static_cast<std::int64_t>(turn.session);
  record.turn = turn.turn;
  record.branch = static_cast<std::int64_t>(turn.branch);
  record.start_ns = send_ns - plan_.timing.epoch_ns;
  // A turn is due when its user has thought; waiting for a slot after that is the server's
  // (coordinated omission), as in an open loop.
  record.intended_start_ns = turn.due_ns;
  record.slot_wait_ns =
      std::max<std::int64_t>(0, slot_free_ns - plan_.timing.epoch_ns - turn.due_ns);
  // A recorded request asks its recorded length; a session's turn its history's words.
  record.requested_input_len =
      turn.cache_ceiling_tokens >= 0 ? turn.user->input_len : turn.history->words();
  record.client_prompt_tokens = turn.client_tokens;
  record.cache_ceiling_tokens = turn.cache_ceiling_tokens;
  record.requested_output_len = request.max_tokens;
  record.warmup = turn.warmup;
  ++sent_;
  if (!turn.warmup) {
    ++measured_sent_;
    if (measured_start_ns_ < 0) measured_start_ns_ = record.start_ns;
  }
  count_started();
  engine::TransferRequest transfer{plan_.target.urls[server_of(record)],
                                   std::move(body),
                                   headers_of(turn),
                                   &slot,
                                   {},
                                   std::move(unsent)};
  trace(record, transfer);
  return transfer;
}

void SessionDriver::turn_ended(const TurnToSend& turn, TurnOutcome outcome, TurnReply reply,
                               std::int64_t end_ns) {
  const std::optional<SessionEnd> ended =
      sessions_->on_turn_end(turn, outcome, std::move(reply), end_ns);
  if (ended) sink_.on_session(*ended);
}

// The engine keeps one header list per headers address for the run, so each session has its
// own lines, made at its first turn and kept (never freed, so no later session's lines can
// take their address) until the driver goes. A replayed agent trace gives each agent of a tree
// an id of its own ("...-<tree>.<agent>" for a subagent): a subagent's context is fresh, so a
// router has nothing of its parent's to keep it with, and `bench record --weka-trace` writes
// it as a session of its own. --fan-out's branches share their session's id.
const std::vector<std::string>* SessionDriver::headers_of(const TurnToSend& turn) {
  if (plan_.session_header.empty()) return plan_.target.headers;
  const std::size_t agent = plan_.sessions->trees ? turn.branch : 0;
  std::unique_ptr<std::vector<std::string>>& lines = session_headers_[{turn.session, agent}];
  if (!lines) {
    lines = std::make_unique<std::vector<std::string>>();
    if (plan_.target.headers != nullptr) *lines = *plan_.target.headers;
    std::string id = session_id(plan_.sessions->seed, plan_.bodies.prompts.stream, turn.session);
    if (agent > 0) id += fmt::format(".{}", agent);
    lines->push_back(plan_.session_header + ": " + id);
  }
  return lines.get();
}

}  // namespace bench::app
