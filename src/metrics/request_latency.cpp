#include "bench/metrics/request_latency.hpp"

namespace bench::metrics {

bool counted_tokens(const RequestRecord& record) {
  return record.completion_token_source == TokenSource::usage ||
         record.completion_token_source == TokenSource::tokenizer;
}

RequestLatency request_latency(const RequestRecord& record) {
  RequestLatency latency;
  const std::int64_t e2e_ns = record.end_ns - record.start_ns;
  latency.e2e_ms = ns_to_ms(e2e_ns);
  if (record.response_headers_ns >= 0) latency.ttfb_ms = ns_to_ms(record.response_headers_ns);
  if (record.first_token_ns < 0) return latency;
  const std::int64_t ttft_ns = record.first_token_ns - record.start_ns;
  latency.ttft_ms = ns_to_ms(ttft_ns);
  if (record.first_answer_ns >= 0)
    latency.ttfa_ms = ns_to_ms(record.first_answer_ns - record.start_ns);
  if (record.text_chunk_ns.size() >= 2) {
    latency.ttst_ms = ns_to_ms(record.text_chunk_ns[1] - record.text_chunk_ns[0]);
  }
  if (record.completion_tokens >= 2) {
    latency.tpot_ms =
        ns_to_ms(e2e_ns - ttft_ns) / static_cast<double>(record.completion_tokens - 1);
  }
  return latency;
}

}  // namespace bench::metrics
