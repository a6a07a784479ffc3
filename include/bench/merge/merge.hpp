#pragma once
// `bench merge`: the results files of the shards of one benchmark (cli/shard_flags.hpp) made
// into one results object with the keys of a single run (or sweep), as if one process had sent
// every request. Each shard's accumulator (results/shard_state.hpp) is restored, its times
// moved onto one clock (the wall clock at each shard's epoch, against the earliest), and merged
// as client threads merge after join: counts and token sums exact, the duration the union
// window, latency percentiles exact while every shard kept its raw values and otherwise from
// the merged histograms (within Histogram::kMaxRelativeError). Sweeps merge point by point;
// --multi-turn figures merge from each shard's multi-turn state alike (sessions are dealt whole).
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::merge {

/// Shards whose clocks started further apart than this get a warning: their union window is
/// wider than any shard's, and the merged throughput is lower than the load really was.
inline constexpr double kStartSpreadLimitMs = 50;

struct ShardFile {
  std::string name;  // for messages: the path
  nlohmann::json results;
};

/// One merged run object, and what the text report is made of.
struct MergedRun {
  metrics::RunSummary summary;
  results::RunContext context;
};

struct Merged {
  nlohmann::json results;       // a run or a sweep, with "merged"
  std::vector<MergedRun> runs;  // the run, or the sweep's points
  std::vector<std::string> warnings;
};

/// Why the files cannot be merged: one line naming the file.
struct MergeError {
  std::string message;
};

/// Refuses files that are not shards' results (or are truncated), shards of different
/// workloads or configurations, a duplicate or missing shard index, and sweeps of different
/// points.
std::variant<Merged, MergeError> merge_shards(const std::vector<ShardFile>& shards);

}  // namespace bench::merge
