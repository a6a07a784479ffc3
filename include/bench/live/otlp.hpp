#pragma once
// One span per request, exported as OTLP/HTTP JSON (OpenTelemetry protocol, JSON encoding:
// opentelemetry-proto's trace/v1/trace.proto, ids as hex strings, times as decimal strings of
// Unix ns) to a collector's traces URL (--otlp-endpoint, e.g. http://collector:4318/v1/traces).
// The span's trace and span ids are those of the request's traceparent, so the server's own
// spans (vLLM's --otlp-traces-endpoint) are its children in the same trace. Its events are the
// request's phases: queued (its intended start), sent, connected, headers, first_token,
// last_token. Spans are posted in batches from a thread of their own; the loops only append.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "bench/metrics/request_record.hpp"

namespace httplib {
class Client;
}

namespace bench::live {

struct Span {
  std::string trace_id, span_id;  // hex, from the request's traceparent
  std::int64_t start_unix_ns = 0, end_unix_ns = 0;
  std::vector<std::pair<const char*, std::int64_t>> events;  // (name, Unix ns), in time order
  bool ok = true;
  std::string error;     // the error class when not ok
  long http_status = 0;  // 0: no response
  std::string response_id;
  std::int64_t input_tokens = -1, output_tokens = -1;  // -1: unknown (no attribute)
  std::uint64_t index = 0;
  bool warmup = false;
};

/// The span of `record`, whose times count from a steady-clock epoch that was `epoch_unix_ns`
/// on the wall clock. Requests sent without a trace context have none (empty trace_id).
Span span_of(const metrics::RequestRecord& record, std::int64_t epoch_unix_ns);

/// An ExportTraceServiceRequest holding `spans`, as OTLP JSON.
std::string otlp_json(const std::vector<Span>& spans);

class OtlpExporter {
 public:
  /// "http://host:port/path" or https; the error naming --otlp-endpoint for another URL.
  static std::variant<std::unique_ptr<OtlpExporter>, std::string> open(const std::string& url);
  ~OtlpExporter();  // posts what is left, then stops
  OtlpExporter(const OtlpExporter&) = delete;
  OtlpExporter& operator=(const OtlpExporter&) = delete;

  void add(Span span);
  /// Posts what is left and stops; returns a line for stderr: spans posted, refused, dropped.
  std::string finish();

 private:
  OtlpExporter(std::unique_ptr<httplib::Client> client, std::string url, std::string path);
  void run();
  void post(std::vector<Span> batch);

  std::unique_ptr<httplib::Client> client_;
  std::string url_, path_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Span> pending_;
  bool stopping_ = false;
  std::int64_t posted_ = 0, refused_ = 0, dropped_ = 0;
  std::string last_error_;
  std::thread thread_;
};

}  // namespace bench::live
