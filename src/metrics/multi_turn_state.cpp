// A MultiTurnAccumulator as plain data and back (multi_turn_state.hpp): what a shard saves so
// that merging shards' multi-turn figures is the same operation as merging client threads'.
#include "bench/metrics/multi_turn_state.hpp"

#include <utility>

#include "bench/metrics/multi_turn.hpp"

namespace bench::metrics {

MultiTurnState MultiTurnAccumulator::state() const {
  MultiTurnState out;
  for (const Turn& turn : turns_) {
    out.turns.push_back({turn.requests, turn.completed, turn.input_tokens, turn.input_counted,
                         turn.ttft_ms.state(), turn.cache.cached, turn.cache.computed,
                         turn.cache.known});
  }
  for (const Band& band : bands_) {
    out.bands.push_back({band.completed, band.input_tokens, band.cache.cached, band.cache.computed,
                         band.cache.known, band.ttft_ms.state()});
  }
  out.sessions = sessions_;
  out.session_duration_ms = session_ms_.state();
  return out;
}

std::optional<MultiTurnAccumulator> MultiTurnAccumulator::from_state(const MultiTurnState& state) {
  std::optional<LatencyDistribution> session_ms =
      LatencyDistribution::from_state(state.session_duration_ms);
  if (!session_ms) return std::nullopt;
  MultiTurnAccumulator out;
  out.session_ms_ = std::move(*session_ms);
  for (const MultiTurnState::Turn& saved : state.turns) {
    std::optional<LatencyDistribution> ttft_ms = LatencyDistribution::from_state(saved.ttft_ms);
    if (!ttft_ms) return std::nullopt;
    out.turns_.push_back(
        Turn{saved.requests, saved.completed, std::move(*ttft_ms), saved.input_tokens_sum,
             saved.input_tokens_known,
             CacheSums{saved.cached_tokens_sum, saved.computed_tokens_sum, saved.cache_known}});
  }
  for (const MultiTurnState::Band& saved : state.bands) {
    std::optional<LatencyDistribution> ttft_ms = LatencyDistribution::from_state(saved.ttft_ms);
    if (!ttft_ms) return std::nullopt;
    out.bands_.push_back(
        Band{saved.completed, std::move(*ttft_ms), saved.input_tokens_sum,
             CacheSums{saved.cached_tokens_sum, saved.computed_tokens_sum, saved.cache_known}});
  }
  out.sessions_ = state.sessions;
  return out;
}

}  // namespace bench::metrics
