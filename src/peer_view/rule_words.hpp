#pragma once
// The words that say why a tool's figure differs from bench's: one phrase per rule that is not
// bench's, so a reader sees the rule beside the number it moved.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/peer_view/tool_rules.hpp"

namespace bench::peer_view {

/// What the pooling saw that the words depend on.
struct Counts {
  std::int64_t requests = 0;            // measured completed requests
  std::int64_t without_usage = 0;       // of them, those whose count is not the server's usage
  std::int64_t with_tool_calls = 0;     // of them, those with tool-call chunks
  std::int64_t inexact_gaps = 0;        // chunks with a choice and no token between tokens
  std::int64_t without_choice_log = 0;  // logged before the choice chunks were
};

/// A distribution's why: of its mean, and of its median and p99 (which a percentile rule moves).
struct Why {
  std::string of_mean, of_rank;
};

Why ttft_why(const ToolRules& tool, const Counts& counts);
Why gaps_why(const ToolRules& tool);
Why per_token_why(const ToolRules& tool);
Why tpot_from_start_why(const ToolRules& tool);
Why e2e_why(const ToolRules& tool);

std::string window_why(const ToolRules& tool, double window_s, double bench_duration_s);
std::string output_count_why(const ToolRules& tool, const Counts& counts);
std::string input_count_why(const ToolRules& tool);

/// "a; b", or whichever is not empty.
std::string join_why(const std::string& a, const std::string& b);

/// What the log could not give exactly, one line each.
std::vector<std::string> notes(const ToolRules& tool, const Counts& counts);

}  // namespace bench::peer_view
