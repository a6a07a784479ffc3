#include "per_server_merge.hpp"

#include <string>

#include <fmt/format.h>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/per_server.hpp"
#include "bench/results/shard_state.hpp"

namespace bench::merge {

namespace {

using nlohmann::json;

// The servers of a run object, by URL and weight, in order: what every shard must share.
json server_list(const json& run) {
  json list = json::array();
  for (const json& server : run.value(std::string(results::key::per_server), json::array())) {
    list.push_back({server.value(std::string(results::key::server_url), std::string()),
                    server.value(std::string(results::key::server_weight), 0)});
  }
  return list;
}

}  // namespace

std::optional<MergeError> merge_per_server(const std::vector<ShardFile>& shards,
                                           const std::vector<const json*>& runs,
                                           const std::vector<std::int64_t>& shifts_ns,
                                           double duration_s, json& merged) {
  const json servers = server_list(*runs.front());
  if (servers.empty()) return std::nullopt;
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (server_list(*runs[i]) != servers) {
      return MergeError{fmt::format("{}: its --base-url servers or weights differ from {}'s",
                                    shards[i].name, shards.front().name)};
    }
  }
  std::vector<results::ServerFigures> figures;
  for (std::size_t k = 0; k < servers.size(); ++k) {
    std::optional<metrics::RunAccumulator> whole;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const json& entry = (*runs[i])[std::string(results::key::per_server)][k];
      auto state = results::accumulator_from_json(entry, shards[i].name);
      if (auto* error = std::get_if<results::FormatError>(&state)) {
        return MergeError{error->message + " (in per_server)"};
      }
      auto& parsed = std::get<metrics::AccumulatorState>(state);
      if (!whole) {
        // As the whole run's: one budget of the shards' together, no steady-state target.
        metrics::SummaryOptions options = parsed.options;
        options.target_in_flight = 0;
        options.sample_budget *= runs.size();
        whole.emplace(options);
      }
      std::optional<metrics::RunAccumulator> part =
          metrics::RunAccumulator::from_state(parsed, shifts_ns[i]);
      if (!part) {
        return MergeError{fmt::format(
            "{}: a \"per_server\" \"shard_state\" holds an invalid histogram or timeline",
            shards[i].name)};
      }
      whole->merge(std::move(*part));
    }
    results::ServerFigures server;
    server.url = servers[k][0].get<std::string>();
    server.weight = servers[k][1].get<std::int64_t>();
    server.summary = whole->summarize();
    figures.push_back(std::move(server));
  }
  merged[std::string(results::key::per_server)] = results::per_server_to_json(figures, duration_s);
  return std::nullopt;
}

}  // namespace bench::merge
