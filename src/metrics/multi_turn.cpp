#include "bench/metrics/multi_turn.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "bench/util/clock.hpp"

namespace bench::metrics {

namespace {

constexpr std::int64_t kFirstBandHigh = 128;  // tokens: the first band is [0, 128)

double mean_or_unknown(double sum, std::int64_t count) {
  return count > 0 ? sum / static_cast<double>(count) : -1;
}

}  // namespace

std::size_t context_band(std::int64_t tokens) {
  std::size_t band = 0;
  for (std::int64_t high = kFirstBandHigh; tokens >= high && band < 56; high *= 2) ++band;
  return band;
}

std::pair<std::int64_t, std::int64_t> context_band_bounds(std::size_t band) {
  if (band == 0) return {0, kFirstBandHigh};
  const std::int64_t low = kFirstBandHigh << (band - 1);
  return {low, low * 2};
}

void MultiTurnAccumulator::CacheSums::add(const RequestRecord& record) {
  const std::int64_t prefilled = record.computed_prompt_tokens();
  if (prefilled < 0) return;
  cached += static_cast<double>(record.cached_prompt_tokens);
  computed += static_cast<double>(prefilled);
  ++known;
}

void MultiTurnAccumulator::CacheSums::merge(const CacheSums& other) {
  cached += other.cached;
  computed += other.computed;
  known += other.known;
}

MultiTurnAccumulator::Turn& MultiTurnAccumulator::turn_at(std::size_t index) {
  while (turns_.size() <= index) {
    turns_.push_back(Turn{
        0, 0, LatencyDistribution(LatencyDistribution::kDefaultExactBudget, budget_), 0, 0, {}});
  }
  return turns_[index];
}

MultiTurnAccumulator::Band& MultiTurnAccumulator::band_at(std::size_t index) {
  while (bands_.size() <= index) {
    bands_.push_back(
        Band{0, LatencyDistribution(LatencyDistribution::kDefaultExactBudget, budget_), 0, {}});
  }
  return bands_[index];
}

// A completed turn whose prompt length the server gave, in its context band.
void MultiTurnAccumulator::add_to_band(const RequestRecord& record) {
  Band& band = band_at(context_band(record.prompt_tokens));
  ++band.completed;
  if (record.first_token_ns >= 0)
    band.ttft_ms.add(ns_to_ms(record.first_token_ns - record.start_ns));
  band.input_tokens += static_cast<double>(record.prompt_tokens);
  band.cache.add(record);
}

void MultiTurnAccumulator::add_turn(const RequestRecord& record) {
  if (record.turn < 0 || record.warmup) return;
  Turn& turn = turn_at(static_cast<std::size_t>(record.turn));
  ++turn.requests;
  if (!record.ok()) return;
  ++turn.completed;
  if (record.first_token_ns >= 0) {
    turn.ttft_ms.add(ns_to_ms(record.first_token_ns - record.start_ns));
  }
  if (record.prompt_tokens >= 0) {
    turn.input_tokens += static_cast<double>(record.prompt_tokens);
    ++turn.input_counted;
    add_to_band(record);
  }
  turn.cache.add(record);
}

void MultiTurnAccumulator::add_session(const SessionOutcome& session) {
  ++sessions_.started;
  sessions_.turns_completed += session.turns_completed;
  if (session.completed) {
    ++sessions_.completed;
    session_ms_.add(ns_to_ms(session.duration_ns));
  } else if (session.failed) {
    ++sessions_.failed;
  } else {
    ++sessions_.unfinished;
  }
}

void MultiTurnAccumulator::merge(MultiTurnAccumulator&& other) {
  for (std::size_t i = 0; i < other.turns_.size(); ++i) {
    Turn& mine = turn_at(i);
    Turn& theirs = other.turns_[i];
    mine.requests += theirs.requests;
    mine.completed += theirs.completed;
    mine.ttft_ms.merge(theirs.ttft_ms);
    mine.input_tokens += theirs.input_tokens;
    mine.input_counted += theirs.input_counted;
    mine.cache.merge(theirs.cache);
  }
  for (std::size_t i = 0; i < other.bands_.size(); ++i) {
    Band& mine = band_at(i);
    Band& theirs = other.bands_[i];
    mine.completed += theirs.completed;
    mine.ttft_ms.merge(theirs.ttft_ms);
    mine.input_tokens += theirs.input_tokens;
    mine.cache.merge(theirs.cache);
  }
  sessions_ += other.sessions_;
  session_ms_.merge(other.session_ms_);
}

MultiTurnSummary MultiTurnAccumulator::summarize() {
  MultiTurnSummary out;
  for (std::size_t i = 0; i < turns_.size(); ++i) {
    Turn& turn = turns_[i];
    TurnFigures figures;
    figures.turn = static_cast<std::int64_t>(i) + 1;
    figures.requests = turn.requests;
    figures.completed = turn.completed;
    figures.ttft_ms = turn.ttft_ms.summarize();
    figures.mean_input_tokens = mean_or_unknown(turn.input_tokens, turn.input_counted);
    figures.mean_cached_input_tokens = mean_or_unknown(turn.cache.cached, turn.cache.known);
    figures.mean_computed_input_tokens = mean_or_unknown(turn.cache.computed, turn.cache.known);
    out.by_turn.push_back(std::move(figures));
  }
  for (std::size_t i = 0; i < bands_.size(); ++i) {
    Band& band = bands_[i];
    if (band.completed == 0) continue;
    ContextBandFigures figures;
    std::tie(figures.low_tokens, figures.high_tokens) = context_band_bounds(i);
    figures.completed = band.completed;
    figures.ttft_ms = band.ttft_ms.summarize();
    figures.mean_input_tokens = band.input_tokens / static_cast<double>(band.completed);
    figures.mean_cached_input_tokens = mean_or_unknown(band.cache.cached, band.cache.known);
    out.by_context.push_back(std::move(figures));
  }
  out.sessions = sessions_;
  out.session_duration_ms = session_ms_.summarize();
  return out;
}

}  // namespace bench::metrics
