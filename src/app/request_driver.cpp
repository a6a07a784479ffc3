#include "bench/app/request_driver.hpp"

namespace bench::app {

// One in-flight request: its body (kept alive for curl), its record and its stream reader.
class RequestDriver::Slot final : public engine::TransferHandler {
 public:
  Slot(RequestDriver& driver, protocol::StreamLimits limits) : driver_(driver), reader_(limits) {}

  void begin(metrics::RequestRecord* record) {
    record_ = record;
    reader_.begin(record);
  }
  bool first_token_seen() const override { return record_->first_token_ns >= 0; }
  void on_headers(long http_status, std::string_view content_type) override {
    reader_.on_headers(http_status, content_type);
  }
  bool on_body(std::string_view bytes, std::int64_t arrival_ns) override {
    return reader_.on_body(bytes, arrival_ns - driver_.config_.epoch_ns);
  }
  void on_end(const engine::TransferEnd& end) override {
    protocol::TransportEnd transport;
    transport.error = end.error;
    transport.message = end.message;
    transport.end_ns = end.end_ns - driver_.config_.epoch_ns;
    reader_.finish(transport);
    record_->new_connection = end.new_connections > 0;
    record_->connect_ns = end.connect_ns;
    driver_.release(this);
  }

 private:
  RequestDriver& driver_;
  protocol::StreamReader reader_;
  metrics::RequestRecord* record_ = nullptr;
};

RequestDriver::RequestDriver(DriverConfig config, const std::vector<workload::Prompt>& prompts,
                             std::vector<metrics::RequestRecord>& records, std::size_t first,
                             std::size_t last, bool warmup)
    : config_(std::move(config)),
      prompts_(prompts),
      records_(records),
      next_(first),
      last_(last),
      warmup_(warmup) {}

RequestDriver::~RequestDriver() = default;

std::optional<std::int64_t> RequestDriver::next_due_ns() {
  // Closed loop: every request is due at once; the engine's concurrency limit paces them.
  if (next_ >= last_) return std::nullopt;
  return config_.epoch_ns;
}

engine::TransferRequest RequestDriver::take_next(std::int64_t slot_free_ns, std::int64_t send_ns) {
  const std::size_t index = next_++;
  const workload::Prompt& prompt = prompts_[index];
  metrics::RequestRecord& record = records_[index];
  record = metrics::RequestRecord{};
  record.index = index;
  record.warmup = warmup_;
  record.intended_start_ns = std::max(slot_free_ns, config_.epoch_ns) - config_.epoch_ns;
  record.start_ns = send_ns - config_.epoch_ns;
  record.requested_input_len = prompt.input_len;
  record.requested_output_len = prompt.output_len;

  Slot* slot = nullptr;
  if (!idle_slots_.empty()) {
    slot = idle_slots_.back();
    idle_slots_.pop_back();
  } else {
    slots_.push_back(std::make_unique<Slot>(*this, config_.limits));
    slot = slots_.back().get();
  }
  slot->begin(&record);

  config_.request.max_tokens = prompt.output_len;
  return engine::TransferRequest{config_.url,
                                 protocol::build_request_body(config_.request, prompt.text),
                                 config_.headers, slot};
}

void RequestDriver::release(Slot* slot) { idle_slots_.push_back(slot); }

}  // namespace bench::app
