#pragma once
// What a shard adds to each of its results objects for `bench merge` (results/shard_state.hpp):
// who it is, when its clock started (wall and monotonic) and how late its first send was
// against --start-at, and its accumulator's contents.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/app/point/run_point.hpp"

namespace bench::app {

/// --shard I/N: this process sends requests k with k mod count == index of the one schedule
/// every shard builds, and its share of each total (shard_share, run_plan.hpp).
struct ShardPlan {
  std::size_t index = 0;
  std::size_t count = 1;
  std::string source;  // "--shard", "JOB_COMPLETION_INDEX", "SLURM_PROCID"; or empty
  std::optional<std::int64_t> start_at_unix_ns;  // --start-at: the run's first request waits
  std::string start_at;                          // as given, for the results
};

/// This machine's name (gethostname); "unknown" when it has none.
std::string host_name();

/// The lines saying which shard this is and when it starts ("" when neither applies), for stderr.
std::string describe_shard(const ShardPlan& shard);

/// Adds "shard" and "shard_state" to a point's results object, and its multi-turn state to its
/// "multi_turn" object; nothing unless the run is a shard (shard.count > 1) and the point kept
/// its state.
void stamp_shard(nlohmann::json& results, const ShardPlan& shard, const PointResult& result);

}  // namespace bench::app
