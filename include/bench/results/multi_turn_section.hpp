#pragma once
// --multi-turn in the report: figures by turn index (TTFT and input tokens, so a prefix cache
// shows as TTFT that stops growing with the context) and by session: the JSON "multi_turn" object
// (keys: results/format.hpp); the text report words the same figures (report/text_multi_turn.cpp).

#include <nlohmann/json.hpp>

#include "bench/metrics/multi_turn.hpp"

namespace bench::results {

nlohmann::json multi_turn_json(const metrics::MultiTurnSummary& summary);

}  // namespace bench::results
