// The catalogue of latency distributions (latency_figures.hpp). The peers' names are those of
// vLLM's vllm/benchmarks/serve.py (mean/median/std/p{N}_{name}_ms, N from
// --metric-percentiles), SGLang's python/sglang/benchmark/serving.py (the same layout, with its
// own names) and AIPerf's metric tags (docs/metrics_reference.md); docs/metrics.md says on the
// same bytes where each differs from bench's.
#include "bench/results/latency_figures.hpp"

#include <fmt/format.h>

namespace bench::results {
namespace {

using metrics::Figure;
using metrics::RunSummary;

bool some_request_reasoned(const RunSummary& summary) { return summary.reasoning.any(); }

constexpr std::string_view kRoleChunk =
    "vLLM's chat client counts the first chunk with choices, even a role-only one";
constexpr std::string_view kPerChunk =
    "per chunk: bench's icl (--json-compat writes it under this name)";

const LatencyFigure kLatencyFigures[] = {
    {.key = "ttft",
     .label = "TTFT",
     .caption = "time to first token",
     .definition =
         "time to first token, ms: request start (bench hands the request to the transport) -> "
         "first chunk carrying generated tokens: content, reasoning or a tool-call delta "
         "(delta.tool_calls with a function name or argument text), whichever comes first; "
         "role-only/empty chunks do not count. SGLang matches for text (it ignores tool calls); "
         "vLLM counts the first chunk with choices, even a role-only one. Over streamed requests: "
         "one sent with \"stream\": false has no first token (SGLang's --disable-stream takes "
         "its whole latency as TTFT).",
     .values = &RunSummary::ttft_ms,
     .kind = Figure::ttft,
     .needs_stream = true,
     .compare_label = "TTFT",
     .vllm = {Agreement::differs, "ttft", kRoleChunk},
     .sglang = {Agreement::same, "ttft"},
     .aiperf = {Agreement::same, "time_to_first_token"},
     .guidellm = {Agreement::same, "time_to_first_token_ms"},
     .llmd_name = "time_to_first_token"},
    {.key = "ttfb",
     .label = "TTFB",
     .caption = "time to response headers: admission; TTFT - TTFB is queueing and prefill",
     .definition =
         "time to response headers, ms: request start -> the response's first byte (its status "
         "line and headers, curl's CURLINFO_STARTTRANSFER_TIME_T), over successful requests: when "
         "the server admitted the request. TTFT - ttfb is the wait for the first token (queueing "
         "inside the engine, then prefill), for servers that send headers on admission.",
     .values = &RunSummary::ttfb_ms,
     .row_only_when_measured = true,
     .in_text_report = false},
    {.key = "ttfa",
     .label = "TTFA",
     .caption = "time to first answer token (reasoning excluded; AIPerf TTFO)",
     .definition =
         "time to first answer token, ms: request start -> first chunk carrying answer text "
         "(delta.content, or a completion's text), reasoning deltas (reasoning_content, "
         "reasoning) not counted; over completed requests with an answer. Equals ttft for a "
         "request that did not reason. AIPerf calls it time to first output token (TTFO); "
         "SGLang/vLLM report none. Null unless some request reasoned.",
     .values = &RunSummary::ttfa_ms,
     .known = some_request_reasoned,
     .kind = Figure::reasoning,
     .row_only_when_measured = true,
     .needs_stream = true,
     .aiperf = {Agreement::same, "time_to_first_output_token"}},
    {.key = "ttst",
     .label = "TTST",
     .caption = "time to second token: first token-carrying chunk to the second (AIPerf TTST)",
     .definition =
         "time to second token, ms: the first chunk carrying generated tokens -> the second "
         "(a gap, not from the request's start), over completed requests with two or more such "
         "chunks; AIPerf's time_to_second_token (second response - first response). On a "
         "prefill/decode-disaggregated server it holds the handoff: the KV transfer and the "
         "first decode step. Per chunk: a first chunk carrying several tokens makes it the gap "
         "to the next chunk, not to the second token.",
     .values = &RunSummary::ttst_ms,
     .kind = Figure::token_gaps,
     .row_only_when_measured = true,
     .needs_stream = true,
     .in_text_report = false,
     .aiperf = {Agreement::same, "time_to_second_token"}},
    {.key = "itl",
     .label = "ITL",
     .caption = "inter-token latency, per token",
     .definition =
         "inter-token latency, ms: gaps between successive tokens. A text chunk carrying k tokens "
         "has its gap from the previous text chunk split evenly over its k tokens; k exact from "
         "per-chunk usage (vLLM continuous_usage_stats), else estimated as completion_tokens / "
         "chunks (itl_estimated). Equals icl when every chunk carries one token. Not vLLM's or "
         "SGLang's itl_ms, which are per-chunk gaps (bench's icl); --json-compat vllm|sglang "
         "writes itl keys with their meaning.",
     .values = &RunSummary::itl_ms,
     .kind = Figure::token_gaps,
     .needs_stream = true,
     .compare_label = "ITL",
     .vllm = {Agreement::differs, "itl", kPerChunk},
     .sglang = {Agreement::differs, "itl", kPerChunk},
     .llmd_name = "inter_token_latency",
     .llmd_per_token = true},
    {.key = "icl",
     .label = "ICL",
     .caption = "inter-chunk latency (SGLang/vLLM \"ITL\")",
     .definition =
         "inter-chunk latency, ms: gaps between successive text-carrying chunks of a request, one "
         "value per gap. This is what SGLang and vLLM call ITL (AIPerf: ICL).",
     .values = &RunSummary::icl_ms,
     .kind = Figure::token_gaps,
     .needs_stream = true,
     .vllm = {Agreement::same, "itl"},
     .sglang = {Agreement::same, "itl"},
     .aiperf = {Agreement::same, "inter_chunk_latency"}},
    {.key = "tpot",
     .label = "TPOT",
     .caption = "per request (E2E - TTFT) / (tokens - 1); GenAI-Perf \"ITL\"",
     .definition =
         "time per output token, ms, per request: (E2E - TTFT) / (completion_tokens - 1), over "
         "requests with >= 2 tokens. = vLLM/SGLang TPOT = GenAI-Perf/AIPerf 'ITL'; GuideLLM's TPOT "
         "(which includes the first token) differs.",
     .values = &RunSummary::tpot_ms,
     .kind = Figure::token_gaps,
     .needs_stream = true,
     .compare_label = "TPOT",
     .vllm = {Agreement::same, "tpot"},
     .sglang = {Agreement::same, "tpot"},
     .aiperf = {Agreement::same, "inter_token_latency"},
     .guidellm = {Agreement::differs, "inter_token_latency_ms",
                  "GuideLLM's ITL: (last token - first token) / (tokens - 1), each request "
                  "weighted by tokens - 1; its TPOT, time_per_output_token_ms, holds the first "
                  "token's wait"},
     .llmd_name = "time_per_output_token",
     .llmd_per_token = true},
    {.key = "e2e_latency",
     .label = "E2E",
     .caption = "end-to-end latency",
     .definition =
         "end-to-end latency, ms: request start -> end of the response stream, or of the whole "
         "body of a request not streamed (SGLang/vLLM E2EL).",
     .values = &RunSummary::e2e_ms,
     .compare_label = "E2E latency",
     .vllm = {Agreement::same, "e2el"},
     .sglang = {Agreement::same, "e2e_latency"},
     .aiperf = {Agreement::same, "request_latency"},
     .guidellm = {Agreement::same, "request_latency"},
     .llmd_name = "request_latency"},
};

}  // namespace

std::string distribution_key(std::string_view stat, std::string_view name) {
  return fmt::format("{}_{}_ms", stat, name);
}

std::span<const LatencyFigure> latency_figures() { return kLatencyFigures; }

const LatencyFigure* latency_figure(std::string_view key) {
  for (const LatencyFigure& figure : kLatencyFigures) {
    if (figure.key == key) return &figure;
  }
  return nullptr;
}

const LatencyFigure* peer_figure(PeerName LatencyFigure::*tool, std::string_view name) {
  const LatencyFigure* differing = nullptr;
  for (const LatencyFigure& figure : kLatencyFigures) {
    const PeerName& peer = figure.*tool;
    if (peer.name != name || peer.agreement == Agreement::none) continue;
    if (peer.agreement == Agreement::same) return &figure;
    if (differing == nullptr) differing = &figure;
  }
  return differing;
}

bool is_known(const LatencyFigure& figure, const RunSummary& summary) {
  if (figure.known != nullptr && !figure.known(summary)) return false;
  return (summary.*figure.values).count > 0;
}

}  // namespace bench::results
