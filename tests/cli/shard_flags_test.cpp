// --shard, --shards and --start-at: 0-based indices, the schedulers' environment (Slurm's
// SLURM_PROCID/SLURM_NTASKS, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX), and the one-line
// refusals of what cannot be a shard or a start time.
#include "bench/cli/shard_flags.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "bench/cli/values.hpp"

namespace {

using bench::cli::parse_start_at;
using bench::cli::resolve_shard;
using bench::cli::ShardSpec;
using bench::cli::UsageError;

bench::cli::EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](std::string_view name) -> std::optional<std::string> {
    const auto found = vars.find(std::string(name));
    if (found == vars.end()) return std::nullopt;
    return found->second;
  };
}

std::string refusal(const std::string& shard, std::int64_t shards,
                    std::map<std::string, std::string> vars = {}) {
  try {
    resolve_shard(shard, shards, env_of(std::move(vars)));
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(ShardFlags, ShardIsZeroBasedIndexOverCount) {
  const ShardSpec spec = resolve_shard("3/4", 0, env_of({}));
  EXPECT_EQ(spec.index, 3);
  EXPECT_EQ(spec.count, 4);
  EXPECT_EQ(spec.source, "--shard");
}

TEST(ShardFlags, RefusesAnIndexOutsideTheCountAndMalformedText) {
  EXPECT_EQ(refusal("5/4", 0),
            "--shard 5/4: the shard index must be 0..3 (0-based: shard 0/4 is the first of 4)");
  EXPECT_NE(refusal("4/4", 0), "");
  EXPECT_NE(refusal("1/0", 0), "");
  EXPECT_NE(refusal("-1/4", 0), "");
  EXPECT_NE(refusal("1", 0).find("expected I/N"), std::string::npos);
  EXPECT_NE(refusal("a/b", 0).find("expected I/N"), std::string::npos);
  EXPECT_NE(refusal("1/4", 3).find("the counts differ"), std::string::npos);
}

TEST(ShardFlags, ShardsTakesTheIndexFromAKubernetesIndexedJobThenFromSlurm) {
  ShardSpec spec = resolve_shard("", 8, env_of({{"JOB_COMPLETION_INDEX", "5"}}));
  EXPECT_EQ(spec.index, 5);
  EXPECT_EQ(spec.count, 8);
  EXPECT_EQ(spec.source, "JOB_COMPLETION_INDEX");
  spec = resolve_shard("", 8, env_of({{"SLURM_PROCID", "2"}}));
  EXPECT_EQ(spec.index, 2);
  EXPECT_EQ(spec.source, "SLURM_PROCID");
  EXPECT_NE(refusal("", 8).find("no shard index"), std::string::npos);
  EXPECT_NE(refusal("", 8, {{"JOB_COMPLETION_INDEX", "8"}}), "");
  EXPECT_NE(refusal("", 8, {{"JOB_COMPLETION_INDEX", "x"}}).find("not a whole number"),
            std::string::npos);
}

TEST(ShardFlags, SrunWithSeveralTasksMakesShardsWithoutAFlag) {
  const ShardSpec spec =
      resolve_shard("", 0, env_of({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "4"}}));
  EXPECT_EQ(spec.index, 1);
  EXPECT_EQ(spec.count, 4);
  // One task, or no Slurm at all: not sharded.
  EXPECT_EQ(resolve_shard("", 0, env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}})).count, 1);
  EXPECT_EQ(resolve_shard("", 0, env_of({})).count, 1);
  // The flag wins over the environment.
  EXPECT_EQ(resolve_shard("0/1", 0, env_of({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "4"}})).count,
            1);
}

constexpr std::int64_t kNs = 1'000'000'000;
constexpr std::int64_t k2026Dec04 = 1796342400LL * kNs;  // 2026-12-04T00:00:00Z

TEST(StartAt, ReadsRfc3339WithFractionAndOffsetAndUnixSeconds) {
  const std::int64_t now = k2026Dec04;
  EXPECT_EQ(parse_start_at("2026-12-04T10:30:00Z", now), k2026Dec04 + 37800 * kNs);
  EXPECT_EQ(parse_start_at("2026-12-04T10:30:00.25Z", now), k2026Dec04 + 37800 * kNs + kNs / 4);
  EXPECT_EQ(parse_start_at("2026-12-04T11:30:00+01:00", now), k2026Dec04 + 37800 * kNs);
  EXPECT_EQ(parse_start_at("2026-12-04 05:30:00-05:00", now), k2026Dec04 + 37800 * kNs);
  EXPECT_EQ(parse_start_at("1796380200", now), k2026Dec04 + 37800 * kNs);
  EXPECT_EQ(parse_start_at("1796380200.5", now), k2026Dec04 + 37800 * kNs + kNs / 2);
}

TEST(StartAt, RefusesATimePassedTooFarAheadOrUnreadable) {
  constexpr std::int64_t now = k2026Dec04 + 37800 * kNs;
  auto refused = [](const std::string& text) -> std::string {
    try {
      parse_start_at(text, now);
    } catch (const UsageError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_EQ(refused("2026-12-04T10:29:59Z"),
            "--start-at 2026-12-04T10:29:59Z: that time has passed (1.000 s ago)");
  EXPECT_NE(refused("2026-12-06T10:30:00Z").find("more than 24 h"), std::string::npos);
  EXPECT_NE(refused("1796380200000").find("expected an RFC 3339 time"), std::string::npos);
  EXPECT_NE(refused("2026-13-04T10:30:00Z"), "");
  EXPECT_NE(refused("2026-12-04T10:30:00"), "");  // no offset: ambiguous
  EXPECT_NE(refused("soon"), "");
}

}  // namespace
