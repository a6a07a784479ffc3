#pragma once
// `bench merge` of shards that loaded several servers (--base-url repeated): each server's
// figures are the sum of what every shard sent it, merged from the shards' per-server
// accumulator states exactly as the whole run's are (results/per_server.hpp).
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/merge/merge.hpp"

namespace bench::merge {

/// Sets merged["per_server"] from the shards' run objects (`runs`, in the files' order; each
/// shard's clock `shifts_ns` later than the earliest), over the merged run's `duration_s`.
/// Nothing when the shards have no per-server figures; a MergeError naming the file whose
/// servers differ from the first's or whose per-server state is missing or malformed.
std::optional<MergeError> merge_per_server(const std::vector<ShardFile>& shards,
                                           const std::vector<const nlohmann::json*>& runs,
                                           const std::vector<std::int64_t>& shifts_ns,
                                           double duration_s, nlohmann::json& merged);

}  // namespace bench::merge
