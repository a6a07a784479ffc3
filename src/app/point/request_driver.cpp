#include "bench/app/point/request_driver.hpp"
#include "bench/app/point/prompt_body.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bench/images/image_file.hpp"
#include "bench/images/image_parts.hpp"
#include "bench/util/splitmix64.hpp"

namespace bench::app {

// One in-flight request: its record and its stream reader, reused request after request.
class RequestDriver::Slot final : public engine::TransferHandler {
 public:
  explicit Slot(RequestDriver& driver)
      : driver_(driver), reader_(driver.plan_.target.limits, driver.plan_.target.output_counter) {
    reader_.read_as(driver.plan_.target.request.endpoint);
  }

  metrics::RequestRecord& begin() {
    record_ = metrics::RequestRecord{};
    reader_.begin(&record_);
    session_turn_.reset();
    return record_;
  }
  // --multi-turn: this request is a turn of the session in `slot` of the scheduler; its
  // answer text is kept for the session's next turn.
  void begin_turn(const TurnToSend& turn) {
    session_turn_ = turn;
    reader_.keep_answer_text(true);
  }
  bool first_token_seen() const override { return record_.first_token_ns >= 0; }
  void on_headers(long http_status, std::string_view content_type) override {
    reader_.on_headers(http_status, content_type);
  }
  bool on_body(std::string_view bytes, std::int64_t arrival_ns) override {
    const std::size_t chunks_before = record_.text_chunk_ns.size();
    const bool keep_going = reader_.on_body(bytes, arrival_ns - driver_.plan_.timing.epoch_ns);
    if (LiveCounters* live = driver_.plan_.watchers.live) {
      live->text_chunks.fetch_add(
          static_cast<std::int64_t>(record_.text_chunk_ns.size() - chunks_before),
          std::memory_order_relaxed);
    }
    return keep_going;
  }
  void on_end(const engine::TransferEnd& end) override {
    protocol::TransportEnd transport;
    transport.error = end.error;
    transport.message = end.message;
    transport.end_ns = end.end_ns - driver_.plan_.timing.epoch_ns;
    reader_.finish(transport);
    if (const util::Redactor* redactor = driver_.plan_.target.redactor) {
      redactor->redact_in_place(record_.error_message);
      redactor->redact_in_place(record_.finish_reason);
      redactor->redact_in_place(record_.response_id);
    }
    if (EarlyStop* early_stop = driver_.plan_.watchers.early_stop) early_stop->observe(record_);
    record_.new_connection = end.new_connections > 0;
    record_.connection_retries = end.connection_retries;
    record_.connect_ns = end.connect_ns;
    record_.response_headers_ns = end.response_start_ns;
    if (UnreachableWatch* unreachable = driver_.plan_.watchers.unreachable) {
      unreachable->observe(record_, driver_.plan_.target.urls[driver_.server_of(record_)]);
    }
    if (LiveCounters* live = driver_.plan_.watchers.live) {
      live->finished.fetch_add(1, std::memory_order_relaxed);
      if (record_.ok()) {
        live->output_tokens.fetch_add(std::max<std::int64_t>(0, record_.completion_tokens),
                                      std::memory_order_relaxed);
        live->input_tokens.fetch_add(std::max<std::int64_t>(0, record_.prompt_tokens),
                                     std::memory_order_relaxed);
      } else if (!record_.cancelled()) {
        live->failed.fetch_add(1, std::memory_order_relaxed);
      }
    }
    if (live::Feed* feed = driver_.plan_.watchers.feed)
      feed->request_ended(record_, driver_.plan_.timing.epoch_ns);
    driver_.sink_.on_record(record_);
    if (session_turn_) end_turn(transport.end_ns);
    driver_.release(this);
  }

 private:
  // Tells the session how its turn ended: a failed turn ends it; a cancelled one cuts it short.
  void end_turn(std::int64_t end_ns) {
    const TurnOutcome outcome = record_.ok()          ? TurnOutcome::ok
                                : record_.cancelled() ? TurnOutcome::cancelled
                                                      : TurnOutcome::failed;
    TurnReply reply;
    reply.text = reader_.answer_text();
    for (const protocol::StreamedToolCall& call : reader_.tool_calls()) {
      reply.tool_calls.push_back(workload::ToolCall{call.id, call.name, call.arguments});
    }
    reply.context_tokens =
        record_.prompt_tokens >= 0 ? record_.prompt_tokens : record_.requested_input_len;
    const std::optional<SessionEnd> ended =
        driver_.sessions_->on_turn_end(*session_turn_, outcome, std::move(reply), end_ns);
    if (ended) driver_.sink_.on_session(*ended);
  }

  RequestDriver& driver_;
  protocol::StreamReader reader_;
  metrics::RequestRecord record_;
  std::optional<TurnToSend> session_turn_;  // --multi-turn: the scheduler's turn, to give back
};

namespace {

// Turns' worth of images a session driver keeps made ahead: its opening burst (every session
// starts at once) takes the most; the loop makes any it runs short of, and the self-check says.
constexpr std::size_t kImagesAhead = 32;

// The --session-header value of a session: the same on each of its turns, different for every
// session of the run (and, by the seed, of other runs).
std::string session_id(std::uint64_t seed, std::uint64_t stream, std::uint64_t session) {
  return fmt::format("bench-{:08x}-{}-{}", seed, stream, session);
}

// The image data URLs of a chat request: the dataset row's own files (each read whole, once,
// here), then --images-per-request's fresh random ones.
std::vector<std::string> request_image_urls(const workload::Prompt& prompt,
                                            const images::ImageSpec& random, std::uint64_t nonce,
                                            std::uint64_t number) {
  std::vector<std::string> urls;
  for (const std::string& file : prompt.image_files) {
    urls.push_back(images::image_file_data_url(file));
  }
  if (random.enabled()) {
    for (std::string& url : images::request_images(random, nonce, number)) {
      urls.push_back(std::move(url));
    }
  }
  return urls;
}

// The body of a prompt (prompt_body.hpp), a chat prompt's with the row's image files and
// --images-per-request's fresh images after the user's text. Each copy of the maker owns its
// request options, so the feed's producer and the event loop never share one. Reading and
// encoding the images is the costly part, and it runs here, on the feed's producer.
BodyMaker body_maker(const DriverPlan& plan) {
  return [request = plan.target.request, images = plan.bodies.images,
          nonce = images::stream_nonce(plan.bodies.image_nonce, plan.bodies.prompts.stream)](
             const workload::Prompt& prompt, std::uint64_t number) mutable {
    request.max_tokens = prompt.output_len;
    return prompt_body(request, prompt,
                       [&] { return request_image_urls(prompt, images, nonce, number); });
  };
}

// How a request bench could not build ends: it fails, unsent, with why in one line.
engine::TransferEnd not_built(std::string why) {
  std::replace(why.begin(), why.end(), '\n', ' ');
  engine::TransferEnd end;
  end.error = metrics::ErrorClass::not_built;
  end.message = "could not build the request: " + why;
  return end;
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

RequestDriver::RequestDriver(DriverPlan plan, RecordSink& sink)
    : plan_(std::move(plan)), sink_(sink) {
  if (plan_.per_prompt.schedule != nullptr) {
    arrivals_.emplace(plan_.per_prompt.schedule->reader());
    measured_start_ns_ = plan_.per_prompt.schedule->measured_start_ns().value_or(-1);
  }
  if (plan_.sessions) {
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
    sessions_ = std::make_unique<SessionScheduler>(std::move(sessions));
    return;
  }
  FeedPlan feed;
  feed.prompts = plan_.bodies.prompts;
  feed.first = plan_.first;
  feed.stride = plan_.stride;
  feed.lookahead = plan_.bodies.lookahead;
  feed.output_len_override = plan_.bodies.output_len_override;
  feed.make_body = body_maker(plan_);
  feed_ = std::make_unique<PromptFeed>(std::move(feed));
}

void RequestDriver::set_epoch(std::int64_t epoch_ns) { plan_.timing.epoch_ns = epoch_ns; }

std::int64_t RequestDriver::measured_end_ns() const {
  if (plan_.timing.measured_duration_ns <= 0 || measured_start_ns_ < 0) return kNoLimitNs;
  return measured_start_ns_ + plan_.timing.measured_duration_ns;
}

// The end of --duration with --duration-hard, or when the server has been unreachable too long.
std::int64_t RequestDriver::cancel_at_ns() const {
  std::int64_t cancel_at = kNoLimitNs;
  if (plan_.timing.cancel_at_duration_end) cancel_at = measured_end_ns();
  if (plan_.watchers.unreachable != nullptr) {
    cancel_at = std::min(cancel_at, plan_.watchers.unreachable->give_up_at_ns(
                                        plan_.timing.clock_ns() - plan_.timing.epoch_ns));
  }
  return cancel_at == kNoLimitNs ? kNoLimitNs : plan_.timing.epoch_ns + cancel_at;
}

std::size_t RequestDriver::server_of(const metrics::RequestRecord& record) const {
  return plan_.target.spread != nullptr
             ? plan_.target.spread->server_of_request(record.index, record.session)
             : 0;
}

RequestDriver::~RequestDriver() = default;

std::optional<std::int64_t> RequestDriver::next_due_ns() {
  if (plan_.watchers.early_stop != nullptr && plan_.watchers.early_stop->stopping())
    return std::nullopt;
  if (plan_.watchers.unreachable != nullptr && plan_.watchers.unreachable->given_up())
    return std::nullopt;
  if (sessions_) return next_turn_due_ns();
  if (feed_->next_request() >= plan_.per_prompt.end_request) return std::nullopt;
  if (open_loop()) {
    const std::uint64_t next = feed_->next_request();
    const std::optional<std::int64_t> offset = arrivals_->offset_ns(next);
    if (!offset || *offset >= measured_end_ns()) return std::nullopt;
    return plan_.timing.epoch_ns + *offset;
  }
  // Closed loop: every request is due at once; the engine's concurrency limit paces them.
  if (measured_sent_ >= plan_.per_prompt.measured_requests) return std::nullopt;
  const std::int64_t since_epoch = plan_.timing.clock_ns() - plan_.timing.epoch_ns;
  if (since_epoch >= plan_.per_prompt.send_until_ns) return std::nullopt;
  const std::int64_t end = measured_end_ns();
  if (end != kNoLimitNs && since_epoch >= end) return std::nullopt;
  return plan_.timing.epoch_ns;
}

// A turn is due at its session's due time; while every open session waits on a reply more
// turns are still to come, so the engine hears a time that never comes rather than "none left"
// (its loop ends only when nothing is in flight and nothing is left). No turn starts after
// --duration.
std::optional<std::int64_t> RequestDriver::next_turn_due_ns() {
  const std::int64_t end = measured_end_ns();
  if (end != kNoLimitNs && plan_.timing.clock_ns() - plan_.timing.epoch_ns >= end)
    return std::nullopt;
  const std::optional<std::int64_t> due = sessions_->next_due_ns();
  if (!due || *due == SessionScheduler::kAwaitingReply) return due;
  return plan_.timing.epoch_ns + *due;
}

std::vector<SessionEnd> RequestDriver::open_sessions() const {
  return sessions_ ? sessions_->open_sessions() : std::vector<SessionEnd>{};
}

RequestDriver::Slot& RequestDriver::acquire_slot() {
  if (!idle_slots_.empty()) {
    Slot* slot = idle_slots_.back();
    idle_slots_.pop_back();
    return *slot;
  }
  slots_.push_back(std::make_unique<Slot>(*this));
  return *slots_.back();
}

// The session's whole history, built on the loop: it holds the reply that has just ended.
engine::TransferRequest RequestDriver::take_turn(std::int64_t slot_free_ns, std::int64_t send_ns) {
  const TurnToSend turn = sessions_->take(send_ns - plan_.timing.epoch_ns);
  protocol::RequestOptions request = plan_.target.request;
  request.max_tokens = plan_.bodies.output_len_override.value_or(turn.user->output_len);
  std::optional<engine::TransferEnd> unsent;
  std::string body = turn_body(request, turn, unsent);
  Slot& slot = acquire_slot();
  metrics::RequestRecord& record = slot.begin();
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
  record.requested_input_len = turn.history->words();
  record.requested_output_len = request.max_tokens;
  ++sent_;
  ++measured_sent_;
  if (measured_start_ns_ < 0) measured_start_ns_ = record.start_ns;
  if (plan_.watchers.live != nullptr)
    plan_.watchers.live->started.fetch_add(1, std::memory_order_relaxed);
  if (plan_.watchers.feed != nullptr) plan_.watchers.feed->request_started();
  const std::size_t server =
      plan_.target.spread != nullptr
          ? plan_.target.spread->server_of_request(record.index, record.session)
          : 0;
  engine::TransferRequest transfer{
      plan_.target.urls[server], std::move(body), headers_of(turn.session), &slot, {},
      std::move(unsent)};
  trace(record, transfer);
  return transfer;
}

// The engine keeps one header list per headers address for the run, so each session has its
// own lines, made at its first turn and kept (never freed, so no later session's lines can
// take their address) until the driver goes.
const std::vector<std::string>* RequestDriver::headers_of(std::uint64_t session) {
  if (plan_.session_header.empty()) return plan_.target.headers;
  std::unique_ptr<std::vector<std::string>>& lines = session_headers_[session];
  if (!lines) {
    lines = std::make_unique<std::vector<std::string>>();
    if (plan_.target.headers != nullptr) *lines = *plan_.target.headers;
    lines->push_back(plan_.session_header + ": " +
                     session_id(plan_.sessions->seed, plan_.bodies.prompts.stream, session));
  }
  return lines.get();
}

engine::TransferRequest RequestDriver::take_next(std::int64_t slot_free_ns, std::int64_t send_ns) {
  if (sessions_) return take_turn(slot_free_ns, send_ns);
  PreparedRequest prepared = feed_->take();  // the feed serves this driver's requests in order
  const std::uint64_t index = prepared.request;

  Slot* slot = &acquire_slot();
  metrics::RequestRecord& record = slot->begin();
  record.index = index;
  record.start_ns = send_ns - plan_.timing.epoch_ns;
  record.warmup = index < plan_.per_prompt.warmup_requests ||
                  record.start_ns < plan_.per_prompt.warmup_until_ns;
  if (open_loop()) {
    // The schedule's time is the intended start; a wait for a concurrency slot after it is
    // part of what the user of an overloaded server would see (coordinated omission).
    record.intended_start_ns = arrivals_->offset_ns(index).value_or(record.start_ns);
    record.slot_wait_ns =
        std::max<std::int64_t>(0, slot_free_ns - plan_.timing.epoch_ns - record.intended_start_ns);
  } else {
    record.intended_start_ns =
        std::max(slot_free_ns, plan_.timing.epoch_ns) - plan_.timing.epoch_ns;
  }
  record.requested_input_len = prepared.input_len;
  record.client_prompt_tokens = prepared.client_tokens;
  record.requested_output_len = prepared.output_len;
  ++sent_;
  if (!record.warmup) {
    ++measured_sent_;
    if (measured_start_ns_ < 0) measured_start_ns_ = record.start_ns;
  }
  if (plan_.watchers.live != nullptr)
    plan_.watchers.live->started.fetch_add(1, std::memory_order_relaxed);
  if (plan_.watchers.feed != nullptr) plan_.watchers.feed->request_started();

  const std::size_t server = plan_.target.spread != nullptr
                                 ? plan_.target.spread->server_of_request(index, record.session)
                                 : 0;
  engine::TransferRequest transfer{
      plan_.target.urls[server], std::move(prepared.body), plan_.target.headers, slot, {}, {}};
  // Its body could not be made: the engine ends it at once, failed, and its record is counted
  // with the others (warm-up or measured), as any request's is.
  if (!prepared.built()) transfer.unsent = not_built(std::move(prepared.error));
  trace(record, transfer);
  return transfer;
}

void RequestDriver::trace(metrics::RequestRecord& record, engine::TransferRequest& request) {
  if (!plan_.target.traceparent || request.unsent) return;  // nothing is sent: no span
  const util::TraceContext context = trace_ids_.next();
  record.trace_id = context.trace_id();
  record.span_id = context.span_id();
  request.own_header = context.header_line();
}

void RequestDriver::release(Slot* slot) { idle_slots_.push_back(slot); }

}  // namespace bench::app
