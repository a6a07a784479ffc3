#pragma once
// W3C Trace Context (https://www.w3.org/TR/trace-context/): the ids of one request's trace and
// of bench's span in it, and the `traceparent` header that carries them to the server, so the
// server's own spans (vLLM's OpenTelemetry tracing) join bench's by trace id.
//   traceparent: 00-<trace-id: 32 lowercase hex>-<parent-id: 16 lowercase hex>-<flags: 01>
// Version 00; flags 01 (sampled): bench asks the server to record its side. An all-zero trace
// or parent id is invalid (section 3.2.2.3-4), so neither is ever made.
#include <cstdint>
#include <string>

namespace bench::util {

struct TraceContext {
  std::uint64_t trace_high = 0, trace_low = 0;  // the 128-bit trace id
  std::uint64_t span = 0;                       // bench's span: the server's parent

  std::string trace_id() const;     // 32 lowercase hex digits
  std::string span_id() const;      // 16 lowercase hex digits
  std::string header_line() const;  // "traceparent: 00-...-...-01"
};

/// Random, distinct trace contexts, one per request: SplitMix64 over a state seeded from the
/// system's entropy (std::random_device) once. One per event loop; not thread-safe.
class TraceIds {
 public:
  TraceIds();
  TraceContext next();

 private:
  std::uint64_t next_word();
  std::uint64_t state_;
};

}  // namespace bench::util
