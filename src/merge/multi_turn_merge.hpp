#pragma once
// `bench merge` of shards of a --multi-turn run: sessions are dealt whole to shards (no session
// spans two), so the figures by turn and by session are the sums of what each shard saw,
// merged from the shards' multi-turn states (results/shard_state.hpp) exactly as client
// threads' accumulators merge after join.
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/merge/merge.hpp"
#include "bench/metrics/multi_turn.hpp"

namespace bench::merge {

/// The multi-turn figures of the shards' run objects (`runs`, in the files' order), with raw
/// values kept within `sample_budget` (the shards' together); nullopt in `merged` when the run
/// was not multi-turn. A MergeError naming the file that is multi-turn when the first is not
/// (or the reverse), or whose multi-turn state is missing or malformed.
std::optional<MergeError> merge_multi_turn(const std::vector<ShardFile>& shards,
                                           const std::vector<const nlohmann::json*>& runs,
                                           std::uint64_t sample_budget,
                                           std::optional<metrics::MultiTurnSummary>& merged);

}  // namespace bench::merge
