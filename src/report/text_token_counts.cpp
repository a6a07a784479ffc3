// The text report's token counts: how many tokens of each kind, and where each count came from
// (server usage, the tokenizer, or an estimate from chunks), never a bare number.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/report/figure_words.hpp"
#include "bench/results/image_split.hpp"
#include "text_writer.hpp"

namespace bench::report::text {

using metrics::RunSummary;
using results::RunContext;

std::string output_source(const RunSummary& s) {
  const std::int64_t usage = s.output_tokens_from_usage;
  const std::int64_t tokenizer = s.output_tokens_from_tokenizer;
  const std::int64_t chunks = s.output_tokens_from_chunks;
  if (tokenizer == 0 && chunks == 0) {
    return usage > 0 ? "from server usage" : "no completed requests";
  }
  if (usage == 0 && chunks == 0) return "counted by the tokenizer: server sent no usage";
  if (usage == 0 && tokenizer == 0) return "ESTIMATE from chunk count: server sent no usage";
  std::vector<std::string> parts;
  if (usage > 0) parts.push_back(fmt::format("{} requests from server usage", usage));
  if (tokenizer > 0) parts.push_back(fmt::format("{} counted by the tokenizer", tokenizer));
  if (chunks > 0) parts.push_back(fmt::format("{} ESTIMATED from chunk count", chunks));
  return fmt::format("mixed: {}", fmt::join(parts, ", "));
}

std::string input_source(const RunSummary& s) {
  if (s.input_tokens_known()) {
    return s.input_tokens_from_usage > 0 ? "from server usage" : "no completed requests";
  }
  if (s.input_tokens_from_usage == 0) {
    return "unknown: server sent no prompt_tokens";
  }
  return fmt::format("mixed: {} requests from server usage, {} unknown, so the total is unknown",
                     s.input_tokens_from_usage, s.input_tokens_unknown);
}

namespace {

// "1800 computed + 248 cached", or n/a with why: the split of Total input tokens.
std::string input_split_counts(const RunSummary& s) {
  const metrics::InputTokenSplit& split = s.input_split;
  if (s.input_tokens_known() && split.disclosure() == metrics::CacheDisclosure::all) {
    return fmt::format("{} computed + {} cached", split.computed_tokens, split.cached_tokens);
  }
  if (split.disclosure() == metrics::CacheDisclosure::some) {
    return fmt::format("n/a (of the {} requests that disclosed it: {} computed + {} cached)",
                       split.disclosing_requests, split.computed_tokens, split.cached_tokens);
  }
  return "n/a (not disclosed by the server)";
}

// How a split of the output (reasoning, tool calls) was counted, in the words of that split:
// one source named, or every source with its count when requests differed.
struct SplitSourceWords {
  const char* chunks;          // what the chunk estimate counted ("reasoning chunks")
  const char* tokenizer_only;  // the line when the tokenizer counted every request
  const char* chunks_only;     // ... when every count is the chunk estimate
  const char* usage_only;      // ... when the server's usage said every count
};

std::string split_source(std::int64_t from_usage, std::int64_t from_tokenizer,
                         std::int64_t from_chunks, const SplitSourceWords& words) {
  const int sources =
      (from_usage > 0 ? 1 : 0) + (from_tokenizer > 0 ? 1 : 0) + (from_chunks > 0 ? 1 : 0);
  if (sources > 1) {
    return fmt::format(
        "mixed: {} from server usage, {} counted by the tokenizer, {} ESTIMATED from {}",
        from_usage, from_tokenizer, from_chunks, words.chunks);
  }
  if (from_tokenizer > 0) return words.tokenizer_only;
  if (from_chunks > 0) return words.chunks_only;
  return words.usage_only;
}

std::string reasoning_source(const metrics::ReasoningSplit& split) {
  return split_source(split.from_usage, split.from_tokenizer, split.from_chunks,
                      {"reasoning chunks", "counted by the tokenizer: usage did not say",
                       "ESTIMATE from reasoning chunks: usage did not say", "from server usage"});
}

// Reasoning models: how the output split, and how that was known; nothing when no request
// reasoned.
void write_reasoning_counts(Writer& w, const RunSummary& s) {
  const metrics::ReasoningSplit& split = s.reasoning;
  if (!split.any()) return;
  w.field("  reasoning + answer", fmt::format("{} + {} ({})", split.reasoning_tokens,
                                              split.answer_tokens, reasoning_source(split)));
  w.field("  requests that reasoned",
          fmt::format("{} of {}", split.reasoning_requests, split.requests));
  w.field("Mean reasoning tokens", fmt::format("{} per request, then {} answer tokens",
                                               length(split.mean_reasoning_tokens().value_or(0)),
                                               length(split.mean_answer_tokens().value_or(0))));
}

std::string tool_call_source(const metrics::ToolCallSplit& split) {
  return split_source(
      split.from_usage, split.from_tokenizer, split.from_chunks,
      {"tool-call chunks", "counted by the tokenizer on names and arguments",
       "ESTIMATE from tool-call chunks", "from server usage: answers of tool calls alone"});
}

// Tool calls: the output tokens spent on them, their share, the calls made, and how the count
// was known; nothing when no request called a tool.
void write_tool_call_counts(Writer& w, const RunSummary& s) {
  const metrics::ToolCallSplit& split = s.tool_calls;
  if (!split.any()) return;
  const std::optional<double> share = split.share_of_output();
  w.field("  tool calls",
          fmt::format("{} tokens, {} of output ({})", split.tool_call_tokens,
                      share ? fmt::format("{:.1f}%", *share * 100.0) : std::string("n/a"),
                      tool_call_source(split)));
  w.field("  requests that called tools",
          fmt::format("{} of {}, {} calls, {} tool-call tokens per calling request",
                      split.tool_call_requests, split.requests, split.tool_calls,
                      length(split.mean_tool_call_tokens())));
}

}  // namespace

void write_token_counts(Writer& w, const RunSummary& s, const RunContext& c) {
  w.rule("Token counts", '-');
  w.field("Total output tokens", fmt::format("{} ({})", s.total_output_tokens, output_source(s)));
  write_reasoning_counts(w, s);
  write_tool_call_counts(w, s);
  w.field("Total input tokens",
          fmt::format("{} ({})",
                      s.input_tokens_known() ? fmt::format("{}", s.total_input_tokens) : "n/a",
                      input_source(s)));
  w.field("  computed + cached", input_split_counts(s));
  if (results::sent_images(c.config)) {
    w.field("  text + images", image_input_split_line(results::image_input_split(s)));
  }
  w.field("Prompt cache", prompt_cache_note(s, c));
  if (s.agent_trees) write_cache_ceiling(w, *s.agent_trees);
  const std::string counted =
      s.input_tokens_from_usage > 0 && s.mean_prompt_tokens
          ? fmt::format("server counted {} tokens", length(*s.mean_prompt_tokens))
          : std::string("server count unknown");
  // The tokenizer's count of the content sent, beside the server's (which adds the template).
  const std::string client_counted =
      s.mean_client_prompt_tokens
          ? fmt::format("tokenizer counted {} tokens, ", length(*s.mean_client_prompt_tokens))
          : std::string();
  w.field("Mean input length",
          fmt::format("requested {} {}, {}{}", length(s.mean_requested_input_len), c.input_len_unit,
                      client_counted, counted));
  w.field("Mean output length",
          fmt::format("requested {} tokens (max_tokens), received {}{}",
                      length(s.mean_requested_output_len),
                      s.mean_completion_tokens ? length(s.mean_completion_tokens) + " tokens"
                                               : std::string("n/a (no completed request)"),
                      s.output_tokens_from_chunks > 0      ? " (ESTIMATE)"
                      : s.output_tokens_from_tokenizer > 0 ? " (counted by the tokenizer)"
                                                           : ""));
  if (s.chunks_differ_from_tokens) {
    std::string how = "exact from per-chunk usage";
    if (s.itl_estimated) {
      how = s.requests_with_per_chunk_usage > 0
                ? fmt::format(
                      "exact from per-chunk usage for {} requests, ESTIMATED from "
                      "completion_tokens / chunks for the rest",
                      s.requests_with_per_chunk_usage)
                : std::string("ESTIMATED from completion_tokens / chunks");
    }
    w.text(
        fmt::format("Note: chunks != tokens: {} text chunks carried {} tokens; ITL splits each "
                    "chunk gap over its tokens ({})",
                    s.total_text_chunks, s.total_output_tokens, how));
  }
}

}  // namespace bench::report::text
