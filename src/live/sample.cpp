#include "bench/live/sample.hpp"

#include "bench/metrics/request_latency.hpp"

namespace bench::live {

Sample sample_of(const metrics::RequestRecord& record, std::int64_t ended_ns) {
  Sample sample;
  sample.warmup = record.warmup;
  sample.ended_ns = ended_ns;
  if (!record.ok()) {
    sample.outcome = record.cancelled() ? Outcome::cancelled : Outcome::failed;
    return sample;
  }
  sample.input_tokens = record.prompt_tokens;
  sample.output_tokens = record.completion_tokens;
  if (record.prompt_tokens >= 0 && record.computed_prompt_tokens() >= 0) {
    sample.cached_input_tokens = record.cached_prompt_tokens;
    sample.computed_input_tokens = record.computed_prompt_tokens();
  }
  if (record.completion_tokens >= 0) {  // as metrics/reasoning_split.cpp counts them
    sample.reasoning_tokens = record.reasoning_tokens;
    sample.tool_call_tokens = record.tool_call_tokens;
  }
  if (record.warmup) return sample;  // in no latency figure, as in the report
  const metrics::RequestLatency latency = metrics::request_latency(record);
  sample.e2e_ms = latency.e2e_ms;
  sample.ttft_ms = latency.ttft_ms;
  sample.tpot_ms = latency.tpot_ms;
  metrics::visit_token_gaps(
      record, [](double) {},
      [&](double value_ms, std::uint64_t times) { sample.itl_ms.emplace_back(value_ms, times); });
  return sample;
}

}  // namespace bench::live
