#pragma once
// One run's figures recomputed under another tool's rules (tool_rules.hpp) from its request log:
// what vLLM's, SGLang's, AIPerf's or GuideLLM's client would have printed for the same bytes at
// the same times. Each figure names the tool's own key, the bench key it is read against, and
// the rule that makes the two differ.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/peer_view/tool_rules.hpp"
#include "bench/results/request_log.hpp"

namespace bench::peer_view {

struct PeerFigure {
  std::string key;              // the tool's own name: "mean_ttft_ms", "time_to_first_token.avg"
  std::optional<double> value;  // ms, or per second for throughputs; nullopt: cannot be known
  std::string bench_key;        // bench's results key it is read against; empty: bench has none
  std::string why;  // the tool's rule that makes it differ from bench's; empty: bench's rule
};

struct PeerView {
  const ToolRules* tool = nullptr;
  std::int64_t requests = 0;  // the measured completed requests it counted
  std::vector<PeerFigure> figures;
  std::vector<std::string> notes;  // what the log could not give exactly, one line each
};

/// What the run itself knows that its log does not.
struct RunFacts {
  double duration_s = 0;  // bench's duration: first measured send -> last measured end
};

/// `tool`'s figures for the run whose request log is `log`.
PeerView recompute(const ToolRules& tool, std::span<const results::LoggedRequest> log,
                   const RunFacts& run);

}  // namespace bench::peer_view
