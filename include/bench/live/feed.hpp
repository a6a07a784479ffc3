#pragma once
// Where the event loops hand the live feed what happens, on their hot path: a relaxed atomic
// for each request sent and, for each that ends, its Sample appended to a list under a mutex
// that only the publisher also takes, once per publish, to swap the list out. So a loop never
// waits longer than a vector swap, and never for an HTTP client or a file. With an OTLP exporter
// each request's span is appended to its list the same way.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "bench/live/otlp.hpp"
#include "bench/live/sample.hpp"
#include "bench/metrics/request_record.hpp"

namespace bench::live {

class Feed {
 public:
  /// A request was handed to the transport.
  void request_started() { in_flight_.fetch_add(1, std::memory_order_relaxed); }
  /// A request ended (any outcome) with this record, whose times count from steady-clock
  /// `epoch_ns`.
  void request_ended(const metrics::RequestRecord& record, std::int64_t epoch_ns);
  /// Also make each ended request with a trace context a span for `exporter` (outlives the
  /// feed's writers); before the run.
  void export_spans_to(OtlpExporter* exporter) { spans_ = exporter; }

  /// The samples since the last call, oldest first.
  std::vector<Sample> take();
  std::int64_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }

 private:
  OtlpExporter* spans_ = nullptr;
  std::atomic<std::int64_t> in_flight_{0};
  std::mutex mutex_;
  std::vector<Sample> pending_;
};

}  // namespace bench::live
