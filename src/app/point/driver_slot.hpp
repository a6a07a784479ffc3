#pragma once
// A driver's slot: one request in flight, its record and its stream reader, reused request after
// request (private to the drivers: point_driver.cpp, request_driver.cpp, session_driver.cpp).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "bench/app/point/point_driver.hpp"

namespace bench::app {

// One in-flight request: its record and its stream reader, reused request after request.
class PointDriver::Slot final : public engine::TransferHandler {
 public:
  explicit Slot(PointDriver& driver)
      : driver_(driver), reader_(driver.plan_.target.limits, driver.plan_.target.output_counter) {
    reader_.read_as(driver.plan_.target.request.endpoint);
  }

  // A new request, sent streamed ("stream": true) or not: its answer is then read as one
  // whole body (protocol::Delivery), and its record says so.
  metrics::RequestRecord& begin(bool streamed) {
    record_ = metrics::RequestRecord{};
    reader_.begin(&record_, streamed ? protocol::Delivery::stream : protocol::Delivery::whole_body);
    session_turn_.reset();
    return record_;
  }
  // --multi-turn: this request is a turn of the session in `slot` of the scheduler; its
  // answer text is kept for the session's next turn.
  void begin_turn(const TurnToSend& turn) {
    session_turn_ = turn;
    reader_.keep_answer_text(true);
  }
  // --ttft-timeout waits for a stream's first token; a whole body has none before its end, which
  // --request-timeout bounds.
  bool first_token_seen() const override {
    return !record_.streamed || record_.first_token_ns >= 0;
  }
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
  // Tells the driver how its turn ended, for its session: a failed turn ends it; a cancelled one
  // cuts it short.
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
    driver_.turn_ended(*session_turn_, outcome, std::move(reply), end_ns);
  }

  PointDriver& driver_;
  protocol::StreamReader reader_;
  metrics::RequestRecord record_;
  std::optional<TurnToSend> session_turn_;  // --multi-turn: the scheduler's turn, to give back
};

/// How a request bench could not build ends: it fails, unsent, with why in one line.
engine::TransferEnd not_built(std::string why);

}  // namespace bench::app
