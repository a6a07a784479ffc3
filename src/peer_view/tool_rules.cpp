// The rules of each benchmark client, read from its source at the commit named (the files are
// cited in docs/metrics.md, "What every other tool would have printed"). Each line of a row says
// where the rule is: a reader can check one rule against one file.
#include "bench/peer_view/tool_rules.hpp"

#include <algorithm>
#include <array>

namespace bench::peer_view {

namespace {

using results::LatencyFigure;

constexpr std::array kTools = {
    // vllm/benchmarks/lib/endpoint_request_func.py @ 02cfb534 (chat and completions request
    // functions): a timestamp at every chunk whose "choices" is not empty, the first ends TTFT,
    // each later one adds a gap to "itl" and moves the latency's end; the usage chunk (choices
    // empty) gives output_tokens and prompt_len. vllm/benchmarks/serve.py @ 009e6d4a
    // (calculate_metrics): output_len = output_tokens, the tokenizer's count of the text
    // without it; TPOT = (latency - ttft) / (output_len - 1); np.percentile; dur_s its wall time.
    ToolRules{.id = "vllm",
              .title = "vLLM bench serve",
              .source = "vllm/benchmarks/lib/endpoint_request_func.py @ 02cfb534, "
                        "vllm/benchmarks/serve.py @ 009e6d4a",
              .column = &LatencyFigure::vllm,
              .first_token = FirstToken::choice_chunk,
              .e2e_ends = EndsAt::last_choice,
              .chunk_gaps = ChunkGaps::choice_chunks,
              .per_token_ends = EndsAt::last_choice,
              .per_token_weighted = false,
              .tpot_from_start = false,
              .output = OutputCount::usage,
              .input = InputCount::usage,
              .percentiles = Percentiles::linear,
              .window = Window::run,
              .keys = KeyStyle::stat_infix_ms,
              .names = {.output_throughput = "output_throughput",
                        .total_throughput = "total_token_throughput",
                        .request_throughput = "request_throughput",
                        .mean = "mean",
                        .median = "median",
                        .p99 = "p99"}},
    // python/sglang/benchmark/backends/oai_chat_client.py @ 55c7579c: TTFT at the first chunk
    // whose reasoning_content + content is not empty (tool-call deltas are not), a gap before
    // each later such chunk, latency taken at every line read ([DONE] included);
    // output_len = usage.completion_tokens, else the requested output_len.
    // python/sglang/benchmark/metrics.py @ 1291c7fc: prompt_len from its dataset (its
    // tokenizer), TPOT = (latency - ttft) / (output_len - 1), np.percentile.
    ToolRules{.id = "sglang",
              .title = "SGLang bench_serving",
              .source = "python/sglang/benchmark/backends/oai_chat_client.py @ 55c7579c, "
                        "python/sglang/benchmark/metrics.py @ 1291c7fc",
              .column = &LatencyFigure::sglang,
              .first_token = FirstToken::text_chunk,
              .e2e_ends = EndsAt::end_of_stream,
              .chunk_gaps = ChunkGaps::token_chunks,
              .per_token_ends = EndsAt::end_of_stream,
              .per_token_weighted = false,
              .tpot_from_start = false,
              .output = OutputCount::usage_else_requested,
              .input = InputCount::client_tokenizer,
              .percentiles = Percentiles::linear,
              .window = Window::run,
              .keys = KeyStyle::stat_infix_ms,
              .names = {.output_throughput = "output_throughput",
                        .input_throughput = "input_throughput",
                        .total_throughput = "total_throughput",
                        .request_throughput = "request_throughput",
                        .mean = "mean",
                        .median = "median",
                        .p99 = "p99"}},
    // aiperf @ db4f6397: aiperf/parsers/openai_parsers.py keeps the responses with content or
    // reasoning (role-only, usage-only and tool-call-only chunks dropped); metrics/types/:
    // ttft_metric (first kept response - start), request_latency_metric (last kept response -
    // start), inter_token_latency_metric ((latency - ttft) / (osl - 1)),
    // inter_chunk_latency_metric, benchmark_duration_metric (last response - first request),
    // output_token_throughput_metrics; metric_dicts.py np.percentile. Output lengths are its
    // tokenizer's unless --use-server-token-count: usage here.
    ToolRules{.id = "aiperf",
              .title = "AIPerf",
              .source = "aiperf/metrics/types/*.py, aiperf/parsers/openai_parsers.py @ db4f6397",
              .column = &LatencyFigure::aiperf,
              .first_token = FirstToken::text_chunk,
              .e2e_ends = EndsAt::last_token,
              .chunk_gaps = ChunkGaps::token_chunks,
              .per_token_ends = EndsAt::last_token,
              .per_token_weighted = false,
              .tpot_from_start = false,
              .output = OutputCount::usage,
              .input = InputCount::usage,
              .percentiles = Percentiles::linear,
              .window = Window::first_send_to_last_token,
              .keys = KeyStyle::name_dot_stat,
              .names = {.output_throughput = "output_token_throughput",
                        .request_throughput = "request_throughput",
                        .mean = "avg",
                        .median = "p50",
                        .p99 = "p99"},
              .stand_in =
                  "AIPerf counts output with its tokenizer unless --use-server-token-count: "
                  "the server's usage here, as that option reads it"},
    // guidellm @ ee7a7745: backends/openai/http.py stamps first_token_iteration at the first
    // line that carried text, reasoning or a tool call, last_token_iteration at the last, and
    // request_end after the stream; schemas/request_stats.py: ITL = (last - first) / (tokens -
    // 1), TPOT = (last - start) / tokens, output tokens from usage; benchmark/schemas/metrics.py
    // weighs ITL by tokens - 1 and TPOT by tokens; schemas/statistics.py takes a percentile as
    // the first value whose cumulative weight reaches it. Its throughputs are rate
    // distributions over time, not recomputed here.
    ToolRules{.id = "guidellm",
              .title = "GuideLLM",
              .source = "src/guidellm/schemas/request_stats.py, backends/openai/http.py, "
                        "schemas/statistics.py @ ee7a7745",
              .column = &LatencyFigure::guidellm,
              .first_token = FirstToken::token_chunk,
              .e2e_ends = EndsAt::end_of_stream,
              .chunk_gaps = ChunkGaps::none,
              .per_token_ends = EndsAt::last_token,
              .per_token_weighted = true,
              .tpot_from_start = true,
              .output = OutputCount::usage_else_chunks,
              .input = InputCount::usage,
              .percentiles = Percentiles::weighted_rank,
              .window = Window::run,
              .keys = KeyStyle::name_dot_stat,
              .names = {.tpot_from_start = "time_per_output_token_ms",
                        .mean = "mean",
                        .median = "median",
                        .p99 = "p99"}},
};

}  // namespace

std::span<const ToolRules> tools() { return kTools; }

const ToolRules* find_tool(std::string_view id) {
  const auto row = std::find_if(kTools.begin(), kTools.end(),
                                [id](const ToolRules& tool) { return tool.id == id; });
  return row != kTools.end() ? &*row : nullptr;
}

std::string_view tool_ids() { return "vllm, sglang, aiperf, guidellm"; }

std::string_view distribution_name(const ToolRules& tool, std::string_view bench_key) {
  const LatencyFigure* row = results::latency_figure(bench_key);
  if (row == nullptr) return {};
  const results::PeerName& name = row->*tool.column;
  return name.agreement == results::Agreement::none ? std::string_view() : name.name;
}

}  // namespace bench::peer_view
