#include "rule_words.hpp"

#include <fmt/format.h>

namespace bench::peer_view {

namespace {

// The same words for the mean and, with the tool's percentile rule when it is not bench's,
// for the median and p99.
Why with_rank(const ToolRules& tool, std::string words) {
  const std::string rank =
      tool.percentiles == Percentiles::weighted_rank
          ? "percentiles taken as the first value whose cumulative weight reaches them, no "
            "interpolation"
          : "";
  return {words, join_why(words, rank)};
}

std::string_view end_words(EndsAt end) {
  switch (end) {
    case EndsAt::end_of_stream: return "the end of the stream";
    case EndsAt::last_choice: return "the last chunk with a choice";
    case EndsAt::last_token: return "the last token-carrying chunk";
  }
  return "";
}

std::string_view start_words(FirstToken first) {
  switch (first) {
    case FirstToken::token_chunk: return "the first token-carrying chunk";
    case FirstToken::choice_chunk: return "the first chunk with a choice";
    case FirstToken::text_chunk: return "the first chunk with text";
  }
  return "";
}

}  // namespace

std::string join_why(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "; " + b;
}

Why ttft_why(const ToolRules& tool, const Counts& counts) {
  switch (tool.first_token) {
    case FirstToken::token_chunk: return with_rank(tool, "");
    case FirstToken::choice_chunk:
      return with_rank(tool, "ends at the first chunk with a choice, a role-only one included");
    case FirstToken::text_chunk:
      return with_rank(tool, counts.with_tool_calls > 0 ? "skips tool-call chunks" : "");
  }
  return {};
}

Why gaps_why(const ToolRules& tool) {
  if (tool.chunk_gaps != ChunkGaps::choice_chunks) return with_rank(tool, "");
  return with_rank(tool,
                   "a gap before every chunk with a choice after the first, the role-only and "
                   "finish-only chunks' included");
}

Why per_token_why(const ToolRules& tool) {
  std::string words;
  if (tool.first_token == FirstToken::choice_chunk ||
      tool.per_token_ends != EndsAt::end_of_stream) {
    words = fmt::format("({} - {}) / (tokens - 1)", end_words(tool.per_token_ends),
                        start_words(tool.first_token));
  }
  if (tool.per_token_weighted) words = join_why(words, "each request weighted by tokens - 1");
  return with_rank(tool, words);
}

Why tpot_from_start_why(const ToolRules& tool) {
  return with_rank(tool,
                   "(last token-carrying chunk - request start) / tokens, weighted by tokens: "
                   "the first token's wait included; bench has no such figure");
}

Why e2e_why(const ToolRules& tool) {
  if (tool.e2e_ends == EndsAt::end_of_stream) return with_rank(tool, "");
  return with_rank(
      tool, fmt::format("ends at {}, before the usage chunk and [DONE]", end_words(tool.e2e_ends)));
}

std::string window_why(const ToolRules& tool, double window_s, double bench_duration_s) {
  if (tool.window == Window::run) return "";
  return fmt::format(
      "over first send -> last token-carrying chunk ({:.3f} s; bench: first send "
      "-> last end, {:.3f} s)",
      window_s, bench_duration_s);
}

std::string output_count_why(const ToolRules& tool, const Counts& counts) {
  if (counts.without_usage == 0) return "";
  switch (tool.output) {
    case OutputCount::usage: return "";  // said once in the notes: the text is not in the log
    case OutputCount::usage_else_requested:
      return fmt::format("{} requests without usage counted at the length asked",
                         counts.without_usage);
    case OutputCount::usage_else_chunks:
      return fmt::format("{} requests without usage counted one token a chunk",
                         counts.without_usage);
  }
  return "";
}

std::string input_count_why(const ToolRules& tool) {
  if (tool.input == InputCount::usage) return "";
  return "input counted by the client's tokenizer on the prompt text, no chat template";
}

std::vector<std::string> notes(const ToolRules& tool, const Counts& counts) {
  std::vector<std::string> lines;
  if (tool.window == Window::run) {
    lines.push_back(
        fmt::format("{}'s throughputs divide by its own wall time of the run, which "
                    "the log does not hold: bench's duration stands in (theirs also "
                    "holds the tool's own start-up, so reads a little lower)",
                    tool.title));
  }
  if (counts.without_choice_log > 0) {
    lines.push_back(
        fmt::format("{} requests were logged before bench logged chunks with a "
                    "choice (first_choice_ms): their chunk times are left out",
                    counts.without_choice_log));
  }
  if (counts.inexact_gaps > 0) {
    lines.push_back(
        fmt::format("{} requests had chunks with a choice and no token between two "
                    "tokens: the log keeps no time for them, so their gaps are merged",
                    counts.inexact_gaps));
  }
  if (tool.first_token == FirstToken::text_chunk && counts.with_tool_calls > 0) {
    lines.push_back(
        fmt::format("{} requests carried tool calls: the log does not tell their "
                    "chunks from text chunks, so they are timed as bench times them",
                    counts.with_tool_calls));
  }
  if (tool.output == OutputCount::usage && counts.without_usage > 0) {
    lines.push_back(
        fmt::format("{} requests had no usage: {} would count their text with its "
                    "tokenizer, which the log does not hold; bench's count is used",
                    counts.without_usage, tool.title));
  }
  if (!tool.stand_in.empty()) lines.emplace_back(tool.stand_in);
  return lines;
}

}  // namespace bench::peer_view
