#pragma once
// Multi-turn figures (--multi-turn): TTFT and input tokens by turn index, so a prefix cache
// shows as TTFT that stops growing with the context, and what became of the sessions. Turn
// figures are over the measured requests; a turn's TTFT and input tokens count its successful
// requests only (as the run's), its request count all that were sent. Its distributions keep
// raw values within the run's one SampleBudget and move to histograms beyond it, so a long
// multi-turn run stays in bounded memory like any other. Standard library only.
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "bench/metrics/latency_distribution.hpp"
#include "bench/metrics/percentile.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/metrics/sample_budget.hpp"
#include "bench/metrics/session_counts.hpp"

namespace bench::metrics {

struct MultiTurnState;  // multi_turn_state.hpp

/// The figures of one turn index over every session.
struct TurnFigures {
  std::int64_t turn = 0;       // 1-based, as shown
  std::int64_t requests = 0;   // sent (measured): completed + failed + cancelled
  std::int64_t completed = 0;  // ended without error
  Distribution ttft_ms;        // of the completed ones that streamed text
  // Mean prompt_tokens of the completed ones whose count is known; -1 when none is.
  double mean_input_tokens = -1;
  // The prompt cache on this turn: the mean cached and computed (prefilled) prompt tokens of the
  // completed ones whose server said what its cache served (usage's cached_tokens); -1 when
  // none did (never 0 for "not said").
  double mean_cached_input_tokens = -1;
  double mean_computed_input_tokens = -1;
};

/// TTFT against the context length: the completed turns whose prompt_tokens are known, by band
/// of prompt tokens [low, high): [0, 128), then each band twice the one before ([128, 256),
/// [256, 512), ...). A prefix cache shows as a TTFT that stops growing with the band.
struct ContextBandFigures {
  std::int64_t low_tokens = 0;
  std::int64_t high_tokens = 0;
  std::int64_t completed = 0;  // turns in the band
  Distribution ttft_ms;        // of those that streamed text
  double mean_input_tokens = 0;
  double mean_cached_input_tokens = -1;  // as TurnFigures'; -1 when no server said
};

/// The band of a prompt of `tokens` tokens (ContextBandFigures), and its bounds.
std::size_t context_band(std::int64_t tokens);
std::pair<std::int64_t, std::int64_t> context_band_bounds(std::size_t band);

struct MultiTurnSummary {
  std::vector<TurnFigures> by_turn;            // turn 1, 2, ... up to the longest session's
  std::vector<ContextBandFigures> by_context;  // the bands that hold a turn, shortest first
  SessionCounts sessions;                      // how they ended
  Distribution session_duration_ms;            // completed sessions: first send -> last turn's end
};

/// How one session ended, for the session figures.
struct SessionOutcome {
  bool completed = false;  // every turn succeeded
  bool failed = false;     // a turn failed and ended it
  std::int64_t turns_completed = 0;
  std::int64_t duration_ns = 0;  // first send -> last turn's end
};

class MultiTurnAccumulator {
 public:
  /// `budget`: the run's budget of raw values (null: each distribution's default alone).
  explicit MultiTurnAccumulator(std::shared_ptr<SampleBudget> budget = nullptr)
      : budget_(std::move(budget)),
        session_ms_(LatencyDistribution::kDefaultExactBudget, budget_) {}

  /// A measured request with a turn (record.turn >= 0); others are ignored.
  void add_turn(const RequestRecord& record);
  void add_session(const SessionOutcome& session);
  void merge(MultiTurnAccumulator&& other);
  /// Sorts the kept values in place (adding more afterwards is allowed).
  MultiTurnSummary summarize();

  /// Its counts, sums and distributions as plain data, for a shard's results.
  MultiTurnState state() const;
  /// The accumulator `state` describes, its distributions with no budget of their own (as
  /// LatencyDistribution::from_state); nullopt when a histogram in it is invalid.
  static std::optional<MultiTurnAccumulator> from_state(const MultiTurnState& state);

 private:
  // What the prompt cache served, over the requests whose server said.
  struct CacheSums {
    double cached = 0;
    double computed = 0;
    std::int64_t known = 0;
    void add(const RequestRecord& record);
    void merge(const CacheSums& other);
  };
  struct Turn {
    std::int64_t requests = 0;
    std::int64_t completed = 0;
    LatencyDistribution ttft_ms;
    double input_tokens = 0;
    std::int64_t input_counted = 0;
    CacheSums cache;
  };
  struct Band {
    std::int64_t completed = 0;
    LatencyDistribution ttft_ms;
    double input_tokens = 0;
    CacheSums cache;
  };
  Turn& turn_at(std::size_t index);
  Band& band_at(std::size_t index);
  void add_to_band(const RequestRecord& record);

  std::shared_ptr<SampleBudget> budget_;
  std::vector<Turn> turns_;
  std::vector<Band> bands_;
  SessionCounts sessions_;
  LatencyDistribution session_ms_;
};

}  // namespace bench::metrics
