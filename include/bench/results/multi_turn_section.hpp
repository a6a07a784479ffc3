#pragma once
// --multi-turn in the report: figures by turn index (TTFT and input tokens, so a prefix cache
// shows as TTFT that stops growing with the context) and by session, for the text report's
// "Multi-turn" section and the JSON "multi_turn" object (keys: results/format.hpp).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/multi_turn.hpp"

namespace bench::results {

nlohmann::json multi_turn_json(const metrics::MultiTurnSummary& summary);

/// The section's lines, a table by turn and the session figures.
std::vector<std::string> multi_turn_lines(const metrics::MultiTurnSummary& summary);

}  // namespace bench::results
