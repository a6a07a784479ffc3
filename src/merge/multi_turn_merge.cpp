#include "multi_turn_merge.hpp"

#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bench/metrics/multi_turn_state.hpp"
#include "bench/results/format.hpp"
#include "bench/results/shard_state.hpp"

namespace bench::merge {

namespace {

using nlohmann::json;

bool is_multi_turn(const json& run) { return run.contains(results::key::multi_turn); }

// The file whose run is multi-turn when the first's is not, or the reverse; or none.
std::optional<MergeError> check_all_agree(const std::vector<ShardFile>& shards,
                                          const std::vector<const json*>& runs) {
  const bool first = is_multi_turn(*runs.front());
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (is_multi_turn(*runs[i]) == first) continue;
    return MergeError{fmt::format("{}: {} multi-turn run (\"multi_turn\"), but {} is {}",
                                  shards[i].name, first ? "not a" : "a", shards.front().name,
                                  first ? "one" : "not")};
  }
  return std::nullopt;
}

}  // namespace

std::optional<MergeError> merge_multi_turn(const std::vector<ShardFile>& shards,
                                           const std::vector<const json*>& runs,
                                           std::uint64_t sample_budget,
                                           std::optional<metrics::MultiTurnSummary>& merged) {
  merged.reset();
  if (auto error = check_all_agree(shards, runs)) return error;
  if (!is_multi_turn(*runs.front())) return std::nullopt;
  // As the whole run's: one budget of raw values, the shards' together.
  metrics::MultiTurnAccumulator whole(std::make_shared<metrics::SampleBudget>(sample_budget));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto state =
        results::multi_turn_state_from_json(runs[i]->at(results::key::multi_turn), shards[i].name);
    if (auto* error = std::get_if<results::FormatError>(&state)) return MergeError{error->message};
    std::optional<metrics::MultiTurnAccumulator> part =
        metrics::MultiTurnAccumulator::from_state(std::get<metrics::MultiTurnState>(state));
    if (!part) {
      return MergeError{fmt::format(
          "{}: the \"multi_turn\" \"shard_state\" holds an invalid histogram", shards[i].name)};
    }
    whole.merge(std::move(*part));
  }
  merged = whole.summarize();
  return std::nullopt;
}

}  // namespace bench::merge
