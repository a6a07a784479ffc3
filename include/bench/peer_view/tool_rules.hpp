#pragma once
// What each benchmark client would have printed for one run: the rules by which vLLM's, SGLang's,
// AIPerf's and GuideLLM's clients turn a stream into figures, one row per tool (as
// protocol/endpoint.hpp is for endpoints). Each rule is read from the tool's source at the commit
// `source` names; recompute.hpp applies the rows to a run's request log, so a new tool is a row.
#include <span>
#include <string_view>

#include "bench/results/latency_figures.hpp"

namespace bench::peer_view {

/// The chunk a request's time to first token ends on.
enum class FirstToken {
  token_chunk,   // the first chunk carrying generated tokens: text, reasoning or a tool call
  choice_chunk,  // the first chunk with a choice, a role-only or empty one included
  text_chunk,    // the first chunk with content or reasoning text (tool-call chunks skipped)
};

/// The moment a request's latency (and the end of its per-token time) is taken.
enum class EndsAt {
  end_of_stream,  // the stream's end ([DONE], or the connection's end)
  last_choice,    // the last chunk with a choice: the usage chunk and [DONE] after it left out
  last_token,     // the last chunk carrying generated tokens
};

/// Which gaps between chunks make its inter-chunk distribution.
enum class ChunkGaps {
  none,           // the tool reports no per-chunk gap
  token_chunks,   // between chunks carrying generated tokens (bench's ICL)
  choice_chunks,  // between chunks with a choice, role-only and finish-only ones included
};

/// How it counts a request's output tokens.
enum class OutputCount {
  usage,                 // the server's usage; without one, the tool tokenizes the text
  usage_else_requested,  // the server's usage; without one, the length it asked for
  usage_else_chunks,     // the server's usage; without one, one token a chunk
};

/// How it counts a request's input tokens.
enum class InputCount {
  usage,             // the server's usage.prompt_tokens
  client_tokenizer,  // its own tokenizer's count of the prompt text (no chat template)
};

/// How its percentiles pick a value.
enum class Percentiles {
  linear,         // numpy's default: interpolated between the two closest ranks
  weighted_rank,  // the first value whose cumulative weight reaches p (no interpolation)
};

/// The window its throughputs divide by.
enum class Window {
  run,                       // its own wall time of the run (bench's duration stands in)
  first_send_to_last_token,  // the first request's send to the last token-carrying chunk
};

/// How the tool spells a figure's statistics in its results.
enum class KeyStyle {
  stat_infix_ms,  // "{stat}_{name}_ms": mean_ttft_ms (vLLM, SGLang)
  name_dot_stat,  // "{name}.{stat}": time_to_first_token.avg (AIPerf, GuideLLM)
};

/// A tool's names for the figures it prints that the latency catalogue does not name (its
/// distributions' names are the catalogue's peer column, results/latency_figures.hpp); empty: it
/// prints none.
struct ToolNames {
  std::string_view tpot_from_start = {};  // GuideLLM's TPOT, which has no bench row
  std::string_view output_throughput = {}, input_throughput = {}, total_throughput = {},
                   request_throughput = {};
  std::string_view mean = {}, median = {}, p99 = {};  // its spelling of the statistics shown
};

struct ToolRules {
  std::string_view id;      // --as's value: "vllm"
  std::string_view title;   // "vLLM bench serve"
  std::string_view source;  // the files and commit the rules were read from
  // Its column of the latency catalogue: the names of its TTFT, chunk gaps ("icl"), per-token
  // time ("tpot") and latency ("e2e_latency").
  results::PeerName results::LatencyFigure::*column;
  FirstToken first_token;
  EndsAt e2e_ends;
  ChunkGaps chunk_gaps;
  // Its per-token latency, (end - first token) / (output tokens - 1), ends here; it is vLLM's
  // and SGLang's TPOT, AIPerf's ITL and GuideLLM's ITL.
  EndsAt per_token_ends;
  bool per_token_weighted;  // each request's value weighs its output tokens - 1 (GuideLLM)
  // (last token - start) / output tokens, weighed by its tokens: GuideLLM's TPOT.
  bool tpot_from_start;
  OutputCount output;
  InputCount input;
  Percentiles percentiles;
  Window window;
  KeyStyle keys;
  ToolNames names;
  // A rule of the tool's the log cannot apply, and what stands in for it: said once; empty: none.
  std::string_view stand_in = {};
};

/// Every tool, in --as's order.
std::span<const ToolRules> tools();

/// The tool of that id, or nullptr.
const ToolRules* find_tool(std::string_view id);

/// "vllm, sglang, aiperf, guidellm": for messages.
std::string_view tool_ids();

/// The tool's name of bench's distribution `bench_key` ("ttft", "icl", "tpot", "e2e_latency"),
/// from its catalogue column; empty when it has none.
std::string_view distribution_name(const ToolRules& tool, std::string_view bench_key);

}  // namespace bench::peer_view
