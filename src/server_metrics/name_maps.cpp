#include "name_maps.hpp"

namespace bench::server_metrics::detail {

const std::array<NameMap, 5>& name_maps() {
  static constexpr std::array<NameMap, 5> kMaps = {{
      // vLLM V1: vllm/v1/metrics/loggers.py (PrometheusStatLogger). kv_cache_usage_perc is a
      // fraction despite its name; gpu_cache_usage_perc and gpu_prefix_cache_* are the names
      // before vLLM 0.10. Prefix-cache counters count tokens, not requests.
      {ServerFamily::vllm,
       "vllm:",
       {"vllm:num_requests_running"},
       {"vllm:num_requests_waiting"},
       {"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
       {},
       {"vllm:prompt_tokens"},
       {"vllm:generation_tokens"},
       {"vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits"},
       {"vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries"},
       {"vllm:num_preemptions"},
       {"vllm:request_success"},
       {"vllm:time_to_first_token_seconds"},
       {"vllm:e2e_request_latency_seconds"},
       // vllm/v1/metrics/stats.py: ITL is observed once per engine step of each request (one
       // token a step, unless speculative decoding emits several); its name before vLLM 0.10 was
       // time_per_output_token_seconds. TPOT is per finished request, decode time / (tokens - 1).
       // Queue time: QUEUED to first SCHEDULED in the engine core.
       {"vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds"},
       {"vllm:request_time_per_output_token_seconds"},
       {"vllm:request_queue_time_seconds"},
       // vllm/v1/spec_decode/metrics.py (SpecDecodingProm), registered with --speculative-config.
       {"vllm:spec_decode_num_draft_tokens"},
       {"vllm:spec_decode_num_accepted_tokens"},
       {},
       {}},
      // SGLang with --enable-metrics: python/sglang/srt/metrics/collector.py. token_usage is the
      // KV pool's used fraction; the prefix cache is given only as a hit rate.
      {ServerFamily::sglang,
       "sglang:",
       {"sglang:num_running_reqs"},
       {"sglang:num_queue_reqs"},
       {"sglang:token_usage"},
       {"sglang:cache_hit_rate"},
       {"sglang:prompt_tokens"},
       {"sglang:generation_tokens"},
       {},
       {},
       {},
       {},
       {"sglang:time_to_first_token_seconds"},
       {"sglang:e2e_request_latency_seconds"},
       // ITL per token: a gap covering k new tokens counts k observations of gap / k
       // (TokenizerMetricsCollector.observe_inter_token_latency). time_per_output_token_seconds
       // is in older releases only (tokenizer_manager.py): at each streamed output after the
       // first, the running mean since the first token, so long requests weigh more than in a
       // per-request TPOT. Queue time: SchedulerMetricsCollector.observe_queue_time, a request's
       // wait in the scheduler's queue (where that wait starts, we have not confirmed).
       {"sglang:inter_token_latency_seconds"},
       {"sglang:time_per_output_token_seconds"},
       {"sglang:queue_time_seconds"},
       // Speculative decoding only as gauges of its recent steps.
       {},
       {},
       {"sglang:spec_accept_length"},
       {"sglang:spec_accept_rate"}},
      // llama.cpp with --metrics: tools/server/server.cpp (handle_metrics). No histograms;
      // "deferred" requests wait for a free slot.
      {ServerFamily::llamacpp,
       "llamacpp:",
       {"llamacpp:requests_processing"},
       {"llamacpp:requests_deferred"},
       {"llamacpp:kv_cache_usage_ratio"},
       {},
       {"llamacpp:prompt_tokens_total"},
       {"llamacpp:tokens_predicted_total"},
       {},
       {},
       {},
       {},
       {},
       {},
       {},
       {},
       {},
       // tools/server/README.md: with a draft model (--model-draft).
       {"llamacpp:tokens_drafted_total"},
       {"llamacpp:tokens_drafted_accepted_total"},
       {},
       {}},
      // Text Generation Inference: docs/source/reference/metrics.md. Token totals are the sums of
      // its per-request length histograms.
      {ServerFamily::tgi,
       "tgi_",
       {"tgi_batch_current_size"},
       {"tgi_queue_size"},
       {},
       {},
       {"tgi_request_input_length"},
       {"tgi_request_generated_tokens"},
       {},
       {},
       {},
       {"tgi_request_success"},
       {},
       {"tgi_request_duration"},
       // router/src/server.rs: no ITL; mean_time_per_token is, per request, its inference time
       // (from its batch's start, so prefill included) / generated tokens: a TPOT that counts the
       // prefill, above a decode-only one for short answers. Queue: queued to its batch's start.
       {},
       {"tgi_request_mean_time_per_token_duration"},
       {"tgi_request_queue_duration"},
       {},
       {},
       {},
       {}},
      // TensorRT-LLM's trtllm-serve, at /prometheus/metrics (its /metrics answers JSON):
      // tensorrt_llm/metrics/collector.py (MetricsCollector). Speculative decoding: the
      // iteration-level counters spec_decode_num_{draft,accepted}_tokens, else the per-request
      // spec_decode_{drafted,accepted}_tokens (one series per token position, summed), and the
      // acceptance_length gauge; no acceptance-rate gauge (accepted / drafted is the rate).
      {ServerFamily::trtllm,
       "trtllm_",
       {"trtllm_num_requests_running"},
       {"trtllm_num_requests_waiting"},
       {"trtllm_kv_cache_utilization"},
       {"trtllm_kv_cache_hit_rate"},
       {"trtllm_prompt_tokens"},
       {"trtllm_generation_tokens"},
       {},
       {},
       {},
       {"trtllm_request_success"},
       {"trtllm_time_to_first_token_seconds"},
       {"trtllm_e2e_request_latency_seconds"},
       // No ITL histogram; TPOT and queue time are observed once per finished request
       // (MetricsCollector.log_request_metrics_dict).
       {},
       {"trtllm_time_per_output_token_seconds"},
       {"trtllm_request_queue_time_seconds"},
       {"trtllm_spec_decode_num_draft_tokens", "trtllm_spec_decode_drafted_tokens"},
       {"trtllm_spec_decode_num_accepted_tokens", "trtllm_spec_decode_accepted_tokens"},
       {"trtllm_spec_decode_acceptance_length"},
       {}},
  }};
  return kMaps;
}

}  // namespace bench::server_metrics::detail
