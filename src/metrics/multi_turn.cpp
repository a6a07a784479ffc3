#include "bench/metrics/multi_turn.hpp"

#include <algorithm>
#include <utility>

#include "bench/util/clock.hpp"

namespace bench::metrics {

MultiTurnAccumulator::Turn& MultiTurnAccumulator::turn_at(std::size_t index) {
  while (turns_.size() <= index) {
    turns_.push_back(
        Turn{0, 0, LatencyDistribution(LatencyDistribution::kDefaultExactBudget, budget_), 0, 0});
  }
  return turns_[index];
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
  }
}

void MultiTurnAccumulator::add_session(const SessionOutcome& session) {
  ++started_;
  turns_completed_ += session.turns_completed;
  if (session.completed) {
    ++completed_;
    session_ms_.add(ns_to_ms(session.duration_ns));
  } else if (session.failed) {
    ++failed_;
  } else {
    ++unfinished_;
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
  }
  started_ += other.started_;
  completed_ += other.completed_;
  failed_ += other.failed_;
  unfinished_ += other.unfinished_;
  turns_completed_ += other.turns_completed_;
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
    if (turn.input_counted > 0) {
      figures.mean_input_tokens = turn.input_tokens / static_cast<double>(turn.input_counted);
    }
    out.by_turn.push_back(std::move(figures));
  }
  out.sessions_started = started_;
  out.sessions_completed = completed_;
  out.sessions_failed = failed_;
  out.sessions_unfinished = unfinished_;
  out.turns_completed = turns_completed_;
  out.session_duration_ms = session_ms_.summarize();
  return out;
}

}  // namespace bench::metrics
