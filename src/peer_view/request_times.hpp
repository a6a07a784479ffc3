#pragma once
// One logged request's times as a tool's rules read them (ms since the request's start).
#include <cstdint>
#include <optional>
#include <vector>

#include "bench/peer_view/tool_rules.hpp"
#include "bench/results/request_log.hpp"

namespace bench::peer_view {

struct RequestTimes {
  std::optional<double> ttft;
  std::optional<double> e2e;
  std::vector<double> chunk_gaps;
  std::optional<double> per_token;        // (end - first token) / (tokens - 1)
  std::optional<double> tpot_from_start;  // (last token - start) / tokens
  std::int64_t output_tokens = 0;
  bool gaps_exact = true;  // false: chunks with a choice and no token fell between tokens
};

/// `r`'s output tokens as `rule` counts them, and whether the count came from usage.
std::int64_t output_tokens(OutputCount rule, const results::LoggedRequest& r);

/// The times of a measured, completed, streamed request; nullopt when the log lacks what the
/// rules need (a log written before the choice chunks were logged).
std::optional<RequestTimes> request_times(const ToolRules& tool, const results::LoggedRequest& r);

}  // namespace bench::peer_view
