#pragma once
// What a shard's results carry for `bench merge` (docs/results-format.md, "shard and shard_state"),
// beside a single run's keys, in every run object (a run, or each point of a sweep):
//   "shard": {"index": 0-based, "count", "host", "start_at": as given or null,
//             "start_at_unix_ns": null without --start-at, "epoch_unix_ns": the wall clock
//             when the point's clock started, "epoch_steady_ns": the monotonic clock then,
//             "start_lag_ms": epoch - start_at, "first_send_ms": the first send after the
//             epoch, "first_send_lag_ms": first send - start_at (both lags null without
//             --start-at, first_send_ms null when nothing was sent)}
//   "shard_state": {"version": 2, "options", "counts", "sums", "distributions", "timeline"}:
//             the accumulator's contents (metrics/accumulator_state.hpp): counts and token
//             sums, error classes, every latency distribution as its raw values while they fit
//             the budget or as its histogram's buckets beyond it, and the timeline's steps.
// With --multi-turn, the run object's "multi_turn" (results/format.hpp) holds one more:
//   "shard_state": {"version": 2, "turns": [per turn index from turn 1: {"requests",
//             "completed", "input_tokens_sum", "input_tokens_known", "ttft_ms": a distribution
//             as above}], "sessions": {"started", "completed", "failed", "unfinished",
//             "turns_completed"}, "session_duration_ms": a distribution}
// A merged object replaces both with
//   "merged": {"shards", "hosts", "start_spread_ms", "start_spread_limit_ms",
//              "max_first_send_lag_ms"}.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/multi_turn_state.hpp"
#include "bench/results/shape.hpp"

namespace bench::results {

namespace key {
inline constexpr std::string_view shard = "shard";
inline constexpr std::string_view shard_index = "index";
inline constexpr std::string_view shard_count = "count";
inline constexpr std::string_view host = "host";
inline constexpr std::string_view start_at = "start_at";
inline constexpr std::string_view start_at_unix_ns = "start_at_unix_ns";
inline constexpr std::string_view epoch_unix_ns = "epoch_unix_ns";
inline constexpr std::string_view epoch_steady_ns = "epoch_steady_ns";
inline constexpr std::string_view start_lag_ms = "start_lag_ms";
inline constexpr std::string_view first_send_ms = "first_send_ms";
inline constexpr std::string_view first_send_lag_ms = "first_send_lag_ms";
inline constexpr std::string_view shard_state = "shard_state";
inline constexpr std::string_view merged = "merged";
inline constexpr std::string_view shards = "shards";
inline constexpr std::string_view hosts = "hosts";
inline constexpr std::string_view start_spread_ms = "start_spread_ms";
inline constexpr std::string_view start_spread_limit_ms = "start_spread_limit_ms";
inline constexpr std::string_view max_first_send_lag_ms = "max_first_send_lag_ms";
}  // namespace key

/// "version" of "shard_state" this bench writes, and the only one it reads: a shard's state is
/// added up, not displayed, so a counter or sum a version lacks cannot be filled in (0 would be
/// a false figure), and shards are merged by the bench that ran them. Bumped whenever a key of
/// the state is added, removed or changes meaning (tests/data/results/shard_state_vN.json,
/// written by this version, must read back: tests/results/shard_state_test.cpp).
/// 1: the first; version-1 files gained keys without a bump (the reasoning and tool-call
/// counters, connection_retries, sent_input_sum, sent_output_sum), so one may lack any of them.
/// 2: every key of 2026-12-05's bench 0.1.0.
/// 3: the distribution ttst_ms (time to second token).
/// 4: the counter not_streamed (completed requests sent with "stream": false).
inline constexpr int kShardStateVersion = 4;

/// Who a shard is and when its clock started: the "shard" object.
struct ShardStamp {
  std::int64_t index = 0;
  std::int64_t count = 1;
  std::string host;
  std::string start_at;                          // as given; empty without --start-at
  std::optional<std::int64_t> start_at_unix_ns;  // nullopt without --start-at
  std::int64_t epoch_unix_ns = 0;
  std::int64_t epoch_steady_ns = 0;
  std::optional<std::int64_t> first_send_ns;  // after the epoch; nullopt when nothing was sent
};

nlohmann::json shard_to_json(const ShardStamp& stamp);

/// The "shard" object of a run object read back; a FormatError naming `name` when it is
/// missing or malformed.
std::variant<ShardStamp, FormatError> shard_from_json(const nlohmann::json& run,
                                                      std::string_view name);

/// The "shard_state" object.
nlohmann::json accumulator_to_json(const metrics::AccumulatorState& state);

/// The "shard_state" of a run object read back; a FormatError naming `name` when it is
/// missing, of another version, or malformed (a truncated or edited file).
std::variant<metrics::AccumulatorState, FormatError> accumulator_from_json(
    const nlohmann::json& run, std::string_view name);

/// The "shard_state" of a "multi_turn" object.
nlohmann::json multi_turn_state_to_json(const metrics::MultiTurnState& state);

/// The "shard_state" of a "multi_turn" object read back; a FormatError naming `name` when it
/// is missing, of another version, or malformed.
std::variant<metrics::MultiTurnState, FormatError> multi_turn_state_from_json(
    const nlohmann::json& multi_turn, std::string_view name);

}  // namespace bench::results
