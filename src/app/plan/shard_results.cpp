#include "bench/app/plan/shard_results.hpp"

#include <unistd.h>

#include <array>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/shard_state.hpp"

namespace bench::app {

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "unknown";
  return name.data();
}

std::string describe_shard(const ShardPlan& shard) {
  std::string lines;
  if (shard.count > 1) {
    lines += fmt::format(
        "bench: shard {}/{} (from {}, 0-based): requests k with k mod {} == {}, "
        "its share of the concurrency\n",
        shard.index, shard.count, shard.source, shard.count, shard.index);
  }
  if (shard.start_at_unix_ns) {
    lines += fmt::format(
        "bench: the first request waits for --start-at {} (Ctrl-C stops the "
        "wait)\n",
        shard.start_at);
  }
  return lines;
}

void stamp_shard(nlohmann::json& results, const ShardPlan& shard, const PointResult& result) {
  if (shard.count < 2 || !result.state) return;
  results::ShardStamp stamp;
  stamp.index = static_cast<std::int64_t>(shard.index);
  stamp.count = static_cast<std::int64_t>(shard.count);
  stamp.host = host_name();
  // Only the point that waited for --start-at has a lag against it.
  if (result.clock.start_at_unix_ns) {
    stamp.start_at = shard.start_at;
    stamp.start_at_unix_ns = result.clock.start_at_unix_ns;
  }
  stamp.epoch_unix_ns = result.clock.epoch_unix_ns;
  stamp.epoch_steady_ns = result.clock.epoch_steady_ns;
  stamp.first_send_ns = result.clock.first_send_ns;
  results[results::key::shard] = results::shard_to_json(stamp);
  results[results::key::shard_state] = results::accumulator_to_json(*result.state);
  // In the multi_turn object, beside the figures it adds up to (as per_server entries hold theirs).
  const auto multi_turn = results.find(results::key::multi_turn);
  if (result.multi_turn_state && multi_turn != results.end()) {
    (*multi_turn)[results::key::shard_state] =
        results::multi_turn_state_to_json(*result.multi_turn_state);
  }
}

}  // namespace bench::app
