// The "definitions" object every results file carries: one line per metric, saying what it
// measures and which peer tool's figure it corresponds to. The prose behind each line is
// docs/metrics.md. The peer definitions are those of SGLang's python/sglang/benchmark/serving.py
// (formerly python/sglang/bench_serving.py), vLLM's vllm/benchmarks/serve.py and
// vllm/benchmarks/lib/endpoint_request_func.py, GenAI-Perf's
// genai_perf/profile_data_parser/llm_profile_data_parser.py and AIPerf's
// docs/metrics-reference.md.
#include "bench/results/writer.hpp"

#include "bench/results/latency_figures.hpp"

namespace bench::results {

nlohmann::json metric_definitions() {
  nlohmann::json definitions = {
      {"sent",
       "measured requests handed to the transport (warm-up excluded); "
       "sent == completed + failed + cancelled."},
      {"completed",
       "measured requests that ended without error: a finished stream with a finish_reason or "
       "[DONE], or a whole JSON completion when not streamed. Only these count toward "
       "throughput and latency."},
      {"failed",
       "measured requests that ended in an error class other than cancelled; counted per class "
       "under \"errors\" and excluded from every throughput and latency figure (so a run with "
       "failures never looks like a clean run: compare failed with sent)."},
      {"cancelled",
       "measured requests stopped by bench itself (interrupt, --duration-hard); not failures, "
       "excluded from throughput and latency."},
      {"warmup_requests",
       "requests sent before the measured phase; recorded, excluded from every other figure."},
      {"requests_not_streamed",
       "completed requests sent with \"stream\": false (--no-stream, SGLang's "
       "--disable-stream): their answer came as one JSON body, so they have an E2E, token counts "
       "and a share of every throughput, but no first token or chunk times: ttft, itl, icl, tpot, "
       "ttfa and ttst are over the streamed requests only, and null when none was streamed."},
      {"duration",
       "seconds from the first measured request's start to the last measured request's end; the "
       "denominator of every throughput. As GenAI-Perf/AIPerf (first send -> last response); "
       "SGLang/vLLM use the tool's wall time after warm-up."},
      {"output_throughput",
       "sum(completion_tokens of completed requests) / duration, output tok/s: the decode rate "
       "and the headline. Same formula as SGLang/vLLM output_throughput."},
      {"input_throughput",
       "sum(prompt_tokens of completed requests) / duration, input tok/s. Same formula as "
       "SGLang input_throughput; each prompt counted once, not a prefill-time rate."},
      {"total_throughput",
       "input_throughput + output_throughput, total tok/s (SGLang total_throughput, vLLM "
       "total_token_throughput). Prefill batches well and decode does not: never read it without "
       "output_throughput."},
      {"computed_input_throughput",
       "sum(prompt_tokens - cached prompt tokens of completed requests) / duration, input "
       "tok/s: the prompt tokens the server prefilled. Cached tokens come from "
       "usage.prompt_tokens_details.cached_tokens (vLLM with --enable-prompt-tokens-details, "
       "SGLang, OpenAI); null unless every completed request disclosed them, never 0 for "
       "unknown. computed + cached == input_throughput."},
      {"cached_input_throughput",
       "sum(cached prompt tokens of completed requests) / duration, input tok/s: prompt tokens "
       "the server's prefix cache served instead of prefilling them; null unless every completed "
       "request disclosed them. input_throughput counts them too, so it flatters prefill when "
       "this is high."},
      {"total_computed_input_tokens",
       "sum of computed (prefilled) prompt tokens; total_cached_input_tokens the cached ones. "
       "Their sum is total_input_tokens; both null unless every completed request disclosed "
       "its cached tokens."},
      {"cached_input_share",
       "cached / (computed + cached) prompt tokens over the completed requests that disclosed "
       "them (0..1); null when none did. Above 0.1 on a workload not meant to share prefixes "
       "(no shared-prefix dataset, no --reuse-prompts, no --prefix-share above 0) the run carries "
       "a warning: its input "
       "tok/s and TTFT measure the cache, not prefill."},
      {"input_split_disclosure",
       "whether the server disclosed cached prompt tokens: \"all\" completed requests, "
       "\"some\" (input_split_disclosing_requests of them; totals and throughputs of the split "
       "are then null) or \"none\"."},
      {"reused_prompts",
       "true when --reuse-prompts resent prompts on purpose: a cache-warm measurement, whose "
       "cached share is expected."},
      {"prompts_share_prefixes",
       "true when the workload's prompts share prefixes on purpose (a shared-prefix dataset, or "
       "a trace whose hash ids repeat), so a high cached share is expected."},
      {"prefix_share",
       "--prefix-share: the share of each prompt (each session's first turn) that every request "
       "of the point sends as one system prompt, as asked (0..1): the cache-hit share a warm "
       "prefix cache gives. cached_input_share is what the server's cache served; a gap beyond "
       "block rounding draws a warning. Only written with the flag."},
      {"prefix_primed",
       "--prefix-share above 0: true when the point's shared system prompt was sent once to "
       "every server before the point was measured (unmeasured, max_tokens 1), so its first "
       "requests find it cached (sgl-project/sglang#37359); false when that failed."},
      {"warnings",
       "the run's warnings, one line each (e.g. a cached share above 10% on a workload not meant "
       "to share prefixes); the client's own are under client.warnings."},
      {"request_throughput",
       "completed requests / duration, req/s (SGLang/vLLM request_throughput)."},
      {"concurrency",
       "achieved concurrency = sum(E2E latency of completed and failed measured requests) / "
       "duration: the mean number of requests in flight by Little's law (SGLang's "
       "concurrency)."},
      {"max_concurrency",
       "the configured limit on requests in flight (--concurrency; SGLang/vLLM "
       "--max-concurrency)."},
      {"schedule_lag",
       "actual start - intended start (when the schedule wanted the request sent; in "
       "closed loop, when a concurrency slot became free), ms, over measured requests: time "
       "the request waited inside the client."},
      {"connections",
       "connections_opened: measured requests that opened a new connection rather than reuse a "
       "kept-alive one; connect_ms: start -> connected (TCP, plus TLS for https) for those. "
       "The connect time is part of their TTFT and E2E, as a user would wait for it too. "
       "connection_retries: measured requests sent once more on a new connection because the "
       "server had closed the reused one before answering (it never read them; llama.cpp closes "
       "each connection after its response); timed from their first attempt."},
      {"client_lag",
       "the part of schedule_lag that was bench's own delay: actual start - intended start - the "
       "wait for a free concurrency slot (open loop with a cap), ms. Above 1 ms at p99 the client "
       "sent late and says why in client.warnings (its own work, its host, or waves)."},
      {"client_saturated",
       "true when the client's own work was the bottleneck: its busiest event loop used over "
       "80% of a core, or over half a core with p99 client_lag or loop turns over 1 ms. Neither "
       "lateness alone nor a wait for a CPU sets it: a mostly idle loop that a busy host ran "
       "late is host_late."},
      {"host_late",
       "true when the client's host ran it late (a busy or virtual machine): over 1% (and at "
       "least five) of the event loop's sleeps ended over 1 ms late, or, with the loop mostly "
       "idle, its lateness (p99 client_lag or loop turns over 1 ms) is no more than its wait "
       "for a CPU accounts for, or it was runnable (running or waiting) over 80% of the run."},
      {"goodput",
       "completed requests meeting every --goodput SLO (ttft, tpot, e2el in ms) / duration, "
       "req/s; null when no SLO was given (vLLM's request_goodput). A request with one token "
       "has no TPOT and passes that SLO, as in vLLM."},
      {"steady_state",
       "the longest stretch of 10 ms steps in which requests in flight were at or above 90% of "
       "the target (--concurrency in a closed loop, else the peak) at the step's start or end: "
       "from the step where in flight rose to it through the step where it fell below, so "
       "requests ending at either edge count; ramp-up and drain left out. Its output/input/total "
       "tok/s count tokens that arrived inside it, input when the first token came back (SGLang "
       "reports a steady-state window likewise)."},
      {"timeline",
       "per-second buckets from the first measured start: width_s (the last bucket ends with the "
       "run's last 10 ms step), requests started, finished, in flight at the bucket's end and "
       "mean_in_flight (mean over its 10 ms steps), output tokens received (split over a "
       "request's chunks as for ITL), input tokens (at the first token), output_throughput and "
       "input_throughput (tokens / width_s, tok/s), errors."},
      {"distributions",
       "the value at percentiles 0, 1, ..., 99, 99.9, 100 of TTFT, ITL, TPOT and E2E (ms), for "
       "CDF plots; the same percentile definition as the flat keys."},
      {"from_intended",
       "TTFT and E2E measured from the intended start instead of the actual start (latency + "
       "schedule lag), so client-side queueing cannot hide server stalls (coordinated "
       "omission); vLLM and h2load time from the actual send only."},
      {"token_counts",
       "completion_tokens and prompt_tokens from the server's usage (requested with "
       "stream_options.include_usage); without usage, completion_tokens = the --tokenizer "
       "file's count of the streamed text (token_count_source \"tokenizer\"), else the number "
       "of text chunks (an estimate, \"chunks_estimate\"; a non-streamed body is one chunk), "
       "and prompt_tokens unknown: "
       "the input figures are then null, never 0. Never the requested length (SGLang falls back "
       "to it)."},
      {"reasoning_output_throughput",
       "sum(reasoning tokens of completed requests) / duration, output tok/s (reasoning): the "
       "part of output_throughput the model spent reasoning; answer_output_throughput is the "
       "rest, output tok/s (answer), and the two add up to output_throughput, which stays all "
       "generated tokens. Null unless some request reasoned."},
      {"reasoning_tokens",
       "per request, the completion tokens spent reasoning: usage.completion_tokens_details"
       ".reasoning_tokens when the server gives it (OpenAI, vLLM, SGLang), else the --tokenizer "
       "file's count of the reasoning text, else the number of chunks carrying reasoning (an "
       "estimate); capped at completion_tokens. token_count_source.reasoning says which "
       "(\"usage\", \"tokenizer\", \"chunks_estimate\", \"mixed\"). Answer tokens = "
       "completion_tokens - reasoning tokens. total_reasoning_tokens/total_answer_tokens sum "
       "them, mean_reasoning_tokens/mean_answer_tokens average them over completed requests; "
       "requests_with_reasoning counts the requests that streamed reasoning or whose usage "
       "counted some. All null (the count 0) when no request reasoned: unknown, never 0."},
      {"tool_call_tokens",
       "per request, the completion tokens spent on tool calls (delta.tool_calls: names and "
       "argument fragments). No server's usage breaks them out: for an answer that streamed no "
       "content they are usage.completion_tokens - reasoning tokens (source usage: every other "
       "token went to the calls, their markup included), else the --tokenizer file's count of "
       "the names and arguments, else the number of tool-call chunks (an estimate); capped at "
       "completion_tokens - reasoning tokens. token_count_source.tool_calls says which. "
       "total_tool_call_tokens sums them, tool_call_output_share = total_tool_call_tokens / "
       "the output tokens of the completed requests, tool_call_output_throughput = "
       "total_tool_call_tokens / duration, output tok/s (tool calls), a part of "
       "output_throughput; total_tool_calls counts the calls (a fragment naming a function "
       "starts one), mean_tool_call_tokens averages over requests_with_tool_calls. Tool-call "
       "chunks count as tokens for ttft, itl, icl and tpot; a request that only called tools has "
       "no ttfa. All null (the count 0) when no request called a tool."},
      {"throughput_per_gpu",
       "output_throughput_per_gpu, input_throughput_per_gpu, total_throughput_per_gpu: each "
       "token throughput of its own kind / --gpus (config.gpus), tok/s per GPU of that kind; "
       "null without --gpus, never guessed. Not one figure: SemiAnalysis InferenceMAX's "
       "tput_per_gpu is the total (input + output) kind."},
      {"output_throughput_per_user",
       "output tok/s per user: a request's output tokens over its decode time, 1000 / tpot_ms "
       "(the interactivity of the efficiency frontier). median_output_throughput_per_user = "
       "1000 / median_tpot_ms; p10_output_throughput_per_user = 1000 / p90_tpot_ms (1/x reverses "
       "the order, so these are the requests at the mirrored ranks): 90% of requests decoded "
       "faster. Null when no request had 2 output tokens."},
      {"usd_per_million_tokens",
       "usd_per_million_output_tokens, usd_per_million_input_tokens, "
       "usd_per_million_total_tokens: --gpus * --gpu-hour-price / 3600 (the GPUs' USD per "
       "second) / that kind's token throughput * 10^6. Each charges the GPUs' whole time to its "
       "own kind, so they do not add up. Null without --gpus and --gpu-hour-price "
       "(config.gpu_hour_price) or when that kind's throughput is 0 or unknown."},
      {"energy",
       "gpu_energy_joules: growth of the GPUs' energy counters over the point's scraped window "
       "(--server-metrics: DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION in mJ, AMD's "
       "gpu_energy_consumed in uJ), every GPU's series added, J. joules_per_output_token = it / "
       "total_output_tokens; joules_per_total_token = it / (input + output tokens). Null when "
       "no counter was scraped, never 0; per token also when warm-up requests ran in the "
       "window."},
      {"percentiles",
       "median/p90/p95/p99: linear interpolation between closest ranks (numpy's default), as "
       "SGLang/vLLM; std is the population standard deviation; one value per request (ttft, "
       "tpot, e2e_latency) or per gap (itl, icl); 0 when there are no values."},
  };
  // The latency distributions' lines are their catalogue rows' (latency_figures.cpp).
  for (const LatencyFigure& figure : latency_figures()) {
    definitions[std::string(figure.key)] = figure.definition;
  }
  return definitions;
}

}  // namespace bench::results
