// What makes a set of files the shards of one benchmark: each a shard's results, their indices
// 0..N-1 each once, the same workload and the same configuration but for the shard's own keys.
#include "shard_checks.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "bench/results/shard_state.hpp"
#include "bench/results/workload.hpp"

namespace bench::merge {

namespace {

using nlohmann::json;

// Keys of "config" that differ between the shards of one benchmark by design.
constexpr std::string_view kShardOwnKeys[] = {"shard_index", "start_at", "client_threads",
                                              "preconnect"};

json comparable_config(const json& run) {
  json config = run.value(results::key::config, json::object());
  if (!config.is_object()) return config;
  for (std::string_view key : kShardOwnKeys) config.erase(std::string(key));
  return config;
}

// The first key whose value differs, said as "config.KEY: A vs B".
std::string first_difference(const json& a, const json& b) {
  std::set<std::string> keys;
  for (const auto& [key, value] : a.items()) keys.insert(key);
  for (const auto& [key, value] : b.items()) keys.insert(key);
  for (const std::string& key : keys) {
    const json left = a.value(key, json());
    const json right = b.value(key, json());
    if (left != right) return fmt::format("config.{}: {} vs {}", key, left.dump(), right.dump());
  }
  return "config";
}

json workload_of(const json& run) { return run.value(results::key::workload, json()); }

}  // namespace

std::variant<std::vector<std::vector<const json*>>, MergeError> runs_by_point(
    const std::vector<ShardFile>& shards) {
  std::vector<std::vector<const json*>> points;
  std::optional<results::Kind> first_kind;
  for (const ShardFile& shard : shards) {
    const auto kind = results::classify(shard.results, shard.name);
    if (const auto* error = std::get_if<results::FormatError>(&kind)) {
      return MergeError{error->message};
    }
    const results::Kind k = std::get<results::Kind>(kind);
    if (k != results::Kind::run && k != results::Kind::sweep) {
      return MergeError{fmt::format("{}: a {} cannot be merged (runs and sweeps can)", shard.name,
                                    results::kind_name(k))};
    }
    if (first_kind && k != *first_kind) {
      return MergeError{fmt::format("{}: a {}, but {} is a {}", shard.name, results::kind_name(k),
                                    shards.front().name, results::kind_name(*first_kind))};
    }
    first_kind = k;
    std::vector<const json*> runs;
    if (k == results::Kind::run) {
      runs.push_back(&shard.results);
    } else {
      for (const json& point : shard.results.at(results::key::points)) runs.push_back(&point);
    }
    if (!points.empty() && runs.size() != points.size()) {
      return MergeError{fmt::format("{}: a sweep of {} points, but {} has {}", shard.name,
                                    runs.size(), shards.front().name, points.size())};
    }
    points.resize(runs.size());
    for (std::size_t p = 0; p < runs.size(); ++p) points[p].push_back(runs[p]);
  }
  return points;
}

std::optional<MergeError> check_shard_set(const std::vector<ShardFile>& shards,
                                          const std::vector<const json*>& runs) {
  std::vector<std::string> holder;  // the file of each index
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto stamp = results::shard_from_json(*runs[i], shards[i].name);
    if (const auto* error = std::get_if<results::FormatError>(&stamp)) {
      return MergeError{error->message};
    }
    const results::ShardStamp& s = std::get<results::ShardStamp>(stamp);
    if (holder.empty()) holder.resize(static_cast<std::size_t>(s.count));
    if (static_cast<std::size_t>(s.count) != holder.size()) {
      return MergeError{fmt::format("{}: shard {}/{}, but {} is one of {} shards", shards[i].name,
                                    s.index, s.count, shards.front().name, holder.size())};
    }
    std::string& file = holder[static_cast<std::size_t>(s.index)];
    if (!file.empty()) {
      return MergeError{fmt::format("{}: shard {}/{} again ({} is that shard too)", shards[i].name,
                                    s.index, s.count, file)};
    }
    file = shards[i].name;
  }
  for (std::size_t index = 0; index < holder.size(); ++index) {
    if (holder[index].empty()) {
      return MergeError{fmt::format("shard {}/{} is missing: give the files of all {} shards",
                                    index, holder.size(), holder.size())};
    }
  }
  return std::nullopt;
}

std::optional<MergeError> check_same_benchmark(const std::vector<ShardFile>& shards,
                                               const std::vector<const json*>& runs) {
  const json config = comparable_config(*runs.front());
  const json workload = workload_of(*runs.front());
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (workload_of(*runs[i]) != workload) {
      return MergeError{fmt::format("{}: another workload than {} (workload {} vs {})",
                                    shards[i].name, shards.front().name,
                                    workload_of(*runs[i]).dump(), workload.dump())};
    }
    const json other = comparable_config(*runs[i]);
    if (other != config) {
      return MergeError{fmt::format("{}: another configuration than {} ({})", shards[i].name,
                                    shards.front().name, first_difference(other, config))};
    }
  }
  return std::nullopt;
}

}  // namespace bench::merge
