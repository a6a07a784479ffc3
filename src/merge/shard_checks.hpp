#pragma once
// The checks `bench merge` makes before it merges anything (merge.hpp).
#include <optional>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/merge/merge.hpp"

namespace bench::merge {

/// The run objects of each file, by point: [point][file] (a run is one point). Refuses a file
/// that is not a run or a sweep, and files of different kinds or numbers of points.
std::variant<std::vector<std::vector<const nlohmann::json*>>, MergeError> runs_by_point(
    const std::vector<ShardFile>& shards);

/// Refuses run objects (one per file, in the files' order) that are not shards, are shards of
/// different counts, or hold an index twice or not at all.
std::optional<MergeError> check_shard_set(const std::vector<ShardFile>& shards,
                                          const std::vector<const nlohmann::json*>& runs);

/// Refuses run objects of different workloads (fingerprint and seed) or configurations (but
/// for each shard's own keys: its index, start time, client threads, connections).
std::optional<MergeError> check_same_benchmark(const std::vector<ShardFile>& shards,
                                               const std::vector<const nlohmann::json*>& runs);

}  // namespace bench::merge
