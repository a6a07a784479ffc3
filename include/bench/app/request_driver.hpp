#pragma once
// The glue between the transport and the OpenAI protocol for one phase of a run: it hands
// the engine request after request (building each body only when it is sent), and turns each
// response into its RequestRecord through a StreamReader. One reader per concurrency slot,
// reused, so the hot path allocates nothing per request beyond the body.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/workload/random_prompts.hpp"

namespace bench::app {

struct DriverConfig {
  std::string url;                         // full endpoint URL
  const std::vector<std::string>* headers;  // request headers, outlive the driver
  protocol::RequestOptions request;        // body shape (max_tokens is taken per prompt)
  std::int64_t epoch_ns = 0;               // steady-clock ns that record times are relative to
  protocol::StreamLimits limits;
};

class RequestDriver final : public engine::RequestSource {
 public:
  /// Sends prompts[first, last) and fills records[first, last); `warmup` marks the records.
  RequestDriver(DriverConfig config, const std::vector<workload::Prompt>& prompts,
                std::vector<metrics::RequestRecord>& records, std::size_t first, std::size_t last,
                bool warmup);
  ~RequestDriver() override;

  std::optional<std::int64_t> next_due_ns() override;
  engine::TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) override;

  /// Index one past the last request handed to the engine: records [first, sent_end) were sent.
  std::size_t sent_end() const { return next_; }

 private:
  class Slot;
  void release(Slot* slot);

  DriverConfig config_;
  const std::vector<workload::Prompt>& prompts_;
  std::vector<metrics::RequestRecord>& records_;
  std::size_t next_;
  std::size_t last_;
  bool warmup_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> idle_slots_;
};

}  // namespace bench::app
