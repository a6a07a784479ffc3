#pragma once
// What a shard adds to each of its results objects for `bench merge` (results/shard_state.hpp):
// who it is, when its clock started (wall and monotonic) and how late its first send was
// against --start-at, and its accumulator's contents.
#include <string>

#include <nlohmann/json.hpp>

#include "bench/app/run_point.hpp"
#include "bench/cli/options.hpp"

namespace bench::app {

/// This machine's name (gethostname); "unknown" when it has none.
std::string host_name();

/// The lines saying which shard this is and when it starts ("" when neither applies), for stderr.
std::string describe_shard(const cli::RunOptions& options);

/// Adds "shard" and "shard_state" to a point's results object, and its multi-turn state to its
/// "multi_turn" object; nothing unless the run is a shard (options.shard_count > 1) and the
/// point kept its state.
void stamp_shard(nlohmann::json& results, const cli::RunOptions& options,
                 const PointResult& result);

}  // namespace bench::app
