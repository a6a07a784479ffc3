#include "bench/app/request_driver.hpp"

#include <algorithm>

#include "bench/util/clock.hpp"

namespace bench::app {

// One in-flight request: its record and its stream reader, reused request after request.
class RequestDriver::Slot final : public engine::TransferHandler {
 public:
  explicit Slot(RequestDriver& driver)
      : driver_(driver), reader_(driver.plan_.limits, driver.plan_.output_counter) {}

  metrics::RequestRecord& begin() {
    record_ = metrics::RequestRecord{};
    reader_.begin(&record_);
    return record_;
  }
  bool first_token_seen() const override { return record_.first_token_ns >= 0; }
  void on_headers(long http_status, std::string_view content_type) override {
    reader_.on_headers(http_status, content_type);
  }
  bool on_body(std::string_view bytes, std::int64_t arrival_ns) override {
    const std::size_t chunks_before = record_.text_chunk_ns.size();
    const bool keep_going = reader_.on_body(bytes, arrival_ns - driver_.plan_.epoch_ns);
    if (LiveCounters* live = driver_.plan_.live) {
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
    transport.end_ns = end.end_ns - driver_.plan_.epoch_ns;
    reader_.finish(transport);
    if (const util::Redactor* redactor = driver_.plan_.redactor) {
      redactor->redact_in_place(record_.error_message);
      redactor->redact_in_place(record_.finish_reason);
      redactor->redact_in_place(record_.response_id);
    }
    if (EarlyStop* early_stop = driver_.plan_.early_stop) early_stop->observe(record_);
    record_.new_connection = end.new_connections > 0;
    record_.connect_ns = end.connect_ns;
    record_.response_headers_ns = end.response_start_ns;
    if (LiveCounters* live = driver_.plan_.live) {
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
    driver_.sink_.on_record(record_);
    driver_.release(this);
  }

 private:
  RequestDriver& driver_;
  protocol::StreamReader reader_;
  metrics::RequestRecord record_;
};

namespace {

// The body of a prompt: chat gets the dataset's messages (or a system and a user message),
// completions one prompt. Each copy of the maker owns its request options, so the feed's
// producer and the event loop never share one.
BodyMaker body_maker(protocol::RequestOptions request) {
  return [request = std::move(request)](const workload::Prompt& prompt) mutable {
    request.max_tokens = prompt.output_len;
    if (!prompt.prompt_ids.empty()) {
      return protocol::build_token_ids_request_body(request, prompt.prompt_ids);
    }
    return request.endpoint == protocol::Endpoint::chat
               ? protocol::build_chat_request_body(request, workload::chat_messages(prompt))
               : protocol::build_request_body(request, workload::completion_prompt(prompt));
  };
}

}  // namespace

RequestDriver::RequestDriver(DriverPlan plan, RecordSink& sink)
    : plan_(std::move(plan)), sink_(sink) {
  if (plan_.schedule != nullptr) {
    arrivals_.emplace(plan_.schedule->reader());
    measured_start_ns_ = plan_.schedule->measured_start_ns().value_or(-1);
  }
  FeedPlan feed;
  feed.source = plan_.prompts;
  feed.stream = plan_.prompt_stream;
  feed.first = plan_.first;
  feed.stride = plan_.stride;
  feed.reuse_modulo = plan_.reuse_prompts_modulo;
  feed.lookahead = plan_.lookahead;
  feed.output_len_override = plan_.output_len_override;
  feed.make_body = body_maker(plan_.request);
  feed_ = std::make_unique<PromptFeed>(std::move(feed));
}

void RequestDriver::set_epoch(std::int64_t epoch_ns) { plan_.epoch_ns = epoch_ns; }

std::int64_t RequestDriver::measured_end_ns() const {
  if (plan_.measured_duration_ns <= 0 || measured_start_ns_ < 0) return kNoLimitNs;
  return measured_start_ns_ + plan_.measured_duration_ns;
}

std::int64_t RequestDriver::cancel_at_ns() const {
  if (!plan_.cancel_at_duration_end) return kNoLimitNs;
  const std::int64_t end = measured_end_ns();
  return end == kNoLimitNs ? kNoLimitNs : plan_.epoch_ns + end;
}

RequestDriver::~RequestDriver() = default;

std::optional<std::int64_t> RequestDriver::next_due_ns() {
  if (plan_.early_stop != nullptr && plan_.early_stop->stopping()) return std::nullopt;
  if (feed_->next_request() >= plan_.end_request) return std::nullopt;
  if (open_loop()) {
    const std::uint64_t next = feed_->next_request();
    const std::optional<std::int64_t> offset = arrivals_->offset_ns(next);
    if (!offset || *offset >= measured_end_ns()) return std::nullopt;
    return plan_.epoch_ns + *offset;
  }
  // Closed loop: every request is due at once; the engine's concurrency limit paces them.
  if (measured_sent_ >= plan_.measured_requests) return std::nullopt;
  const std::int64_t end = measured_end_ns();
  if (end != kNoLimitNs && now_ns() - plan_.epoch_ns >= end) return std::nullopt;
  return plan_.epoch_ns;
}

engine::TransferRequest RequestDriver::take_next(std::int64_t slot_free_ns, std::int64_t send_ns) {
  PreparedRequest prepared = feed_->take();  // the feed serves this driver's requests in order
  const std::uint64_t index = prepared.request;

  Slot* slot = nullptr;
  if (!idle_slots_.empty()) {
    slot = idle_slots_.back();
    idle_slots_.pop_back();
  } else {
    slots_.push_back(std::make_unique<Slot>(*this));
    slot = slots_.back().get();
  }
  metrics::RequestRecord& record = slot->begin();
  record.index = index;
  record.start_ns = send_ns - plan_.epoch_ns;
  record.warmup = index < plan_.warmup_requests || record.start_ns < plan_.warmup_until_ns;
  if (open_loop()) {
    // The schedule's time is the intended start; a wait for a concurrency slot after it is
    // part of what the user of an overloaded server would see (coordinated omission).
    record.intended_start_ns = arrivals_->offset_ns(index).value_or(record.start_ns);
    record.slot_wait_ns =
        std::max<std::int64_t>(0, slot_free_ns - plan_.epoch_ns - record.intended_start_ns);
  } else {
    record.intended_start_ns = std::max(slot_free_ns, plan_.epoch_ns) - plan_.epoch_ns;
  }
  record.requested_input_len = prepared.input_len;
  record.client_prompt_tokens = prepared.client_tokens;
  record.requested_output_len = prepared.output_len;
  ++sent_;
  if (!record.warmup) {
    ++measured_sent_;
    if (measured_start_ns_ < 0) measured_start_ns_ = record.start_ns;
  }
  if (plan_.live != nullptr) plan_.live->started.fetch_add(1, std::memory_order_relaxed);

  const std::size_t server = plan_.spread != nullptr ? plan_.spread->server_of(index) : 0;
  return engine::TransferRequest{plan_.urls[server], std::move(prepared.body), plan_.headers,
                                 slot};
}

void RequestDriver::release(Slot* slot) { idle_slots_.push_back(slot); }

}  // namespace bench::app
