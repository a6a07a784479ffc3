#pragma once
// The flags of a run split over several processes (shards) and started together:
//   --shard I/N      this process is shard I (0-based: 0..N-1) of N
//   --shards N       N shards; this one's index from the scheduler's environment:
//                    JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), else SLURM_PROCID
//   (neither)        under `srun -n N` (SLURM_NTASKS > 1): shard SLURM_PROCID of SLURM_NTASKS
//   --start-at TIME  wait until TIME (RFC 3339, or Unix seconds) before the first request
// Shard I sends request k of each point only when k mod N == I (app/run_plan.hpp), so every
// shard needs the same workload: the same --seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"
#include "bench/cli/run_flags.hpp"

namespace bench::cli {

struct ShardSpec {
  std::int64_t index = 0;
  std::int64_t count = 1;
  std::string source;  // "--shard", "JOB_COMPLETION_INDEX", "SLURM_PROCID"; empty: no shards
};

/// An environment variable's value, or nullopt when unset (std::getenv, or a test's map).
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

/// The shard from --shard's text (empty: not given), --shards (0: not given) and the
/// environment. Throws UsageError naming the flag or variable and the value.
ShardSpec resolve_shard(const std::string& shard_flag, std::int64_t shards_flag,
                        const EnvLookup& env);

/// --start-at's time in ns since the Unix epoch: "2026-12-04T10:30:00Z" (RFC 3339, fraction
/// and offset allowed) or "1796383800" (Unix seconds, fraction allowed). Throws UsageError for
/// another text, a time before `now_unix_ns`, or one more than a day after it.
std::int64_t parse_start_at(const std::string& text, std::int64_t now_unix_ns);

void setup_shard_flags(CLI::App& app, RawRunFlags& raw);

/// After parsing: sets run's shard and start time, and refuses what shards cannot do (no shared
/// --seed, the embedded server, --repeat, a concurrency below the shard count).
void finish_shard_flags(RunOptions& run, const RawRunFlags& raw, const EnvLookup& env,
                        std::int64_t now_unix_ns);

}  // namespace bench::cli
