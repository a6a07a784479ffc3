#pragma once
// Each tool's recomputed figures beside bench's own from the run's results, as text (one block
// a tool: its key, its value, bench's value and the rule between them) and as JSON.
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/peer_view/recompute.hpp"

namespace bench::peer_view {

/// `run` is the run's results object, where bench's figures are read by their keys.
std::string render_text(std::span<const PeerView> views, const nlohmann::json& run);

nlohmann::json to_json(std::span<const PeerView> views, const nlohmann::json& run);

}  // namespace bench::peer_view
