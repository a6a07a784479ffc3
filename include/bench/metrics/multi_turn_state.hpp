#pragma once
// What a MultiTurnAccumulator holds, as plain data: enough for `bench merge` to add up the
// multi-turn figures of shards exactly as the accumulators of client threads merge after join
// (counts and sums exact, the distributions as accumulator_state.hpp saves them). Sessions are
// dealt whole to shards, so each shard's sessions are complete and the sums are the run's. The
// results module writes and reads it (results/shard_state.hpp); this module knows no format.
#include <cstdint>
#include <vector>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/session_counts.hpp"

namespace bench::metrics {

struct MultiTurnState {
  /// One turn index's figures (index 0 is turn 1).
  struct Turn {
    std::int64_t requests = 0;            // sent (measured)
    std::int64_t completed = 0;           // ended without error
    double input_tokens_sum = 0;          // prompt_tokens of the completed ones that had a count
    std::int64_t input_tokens_known = 0;  // how many those were
    DistributionState ttft_ms;
    // What the prompt cache served, over the completed ones whose server said.
    double cached_tokens_sum = 0;
    double computed_tokens_sum = 0;
    std::int64_t cache_known = 0;
  };
  /// One context band's figures (multi_turn.hpp, context_band; index 0 is the first band).
  struct Band {
    std::int64_t completed = 0;
    double input_tokens_sum = 0;
    double cached_tokens_sum = 0;
    double computed_tokens_sum = 0;
    std::int64_t cache_known = 0;
    DistributionState ttft_ms;
  };
  std::vector<Turn> turns;
  std::vector<Band> bands;
  SessionCounts sessions;
  DistributionState session_duration_ms;  // of the completed sessions
};

}  // namespace bench::metrics
