// The text report's "Multi-turn" section (--multi-turn): a table by turn index, one by context
// length, and the sessions' figures, worded from metrics::MultiTurnSummary (the JSON
// "multi_turn" object holds the same figures: results/multi_turn_section.hpp).
#include <string>

#include <fmt/format.h>

#include "text_writer.hpp"

namespace bench::report::text {
namespace {

std::string ms_or_dash(const metrics::Distribution& d, double figure) {
  return d.count > 0 ? fmt::format("{:.2f}", figure) : std::string("-");
}

// A mean token count that is -1 when unknown: "n/a" (never 0).
std::string tokens_or_na(double mean) {
  return mean >= 0 ? fmt::format("{:.1f}", mean) : std::string("n/a");
}

void write_by_turn(Writer& w, const metrics::MultiTurnSummary& summary) {
  w.text(fmt::format("{:>6}{:>10}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}{:>10}", "turn", "requests",
                     "completed", "TTFT mean", "TTFT p50", "TTFT p99", "input tokens", "cached",
                     "computed"));
  for (const metrics::TurnFigures& turn : summary.by_turn) {
    w.text(fmt::format(
        "{:>6}{:>10}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}{:>10}", turn.turn, turn.requests,
        turn.completed, ms_or_dash(turn.ttft_ms, turn.ttft_ms.mean),
        ms_or_dash(turn.ttft_ms, turn.ttft_ms.median), ms_or_dash(turn.ttft_ms, turn.ttft_ms.p99),
        tokens_or_na(turn.mean_input_tokens), tokens_or_na(turn.mean_cached_input_tokens),
        tokens_or_na(turn.mean_computed_input_tokens)));
  }
  w.text("TTFT in ms; input tokens: mean prompt_tokens of the turn's completed requests;");
  w.text("cached and computed: their split as the server's usage said (n/a: not said).");
}

// TTFT against the context length, one line a band of prompt tokens.
void write_by_context(Writer& w, const metrics::MultiTurnSummary& summary) {
  if (summary.by_context.empty()) return;
  w.text(fmt::format("{:>16}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}", "context tokens", "completed",
                     "TTFT mean", "TTFT p50", "TTFT p99", "input tokens", "cached"));
  for (const metrics::ContextBandFigures& band : summary.by_context) {
    w.text(fmt::format("{:>16}{:>11}{:>12}{:>12}{:>12}{:>14.1f}{:>10}",
                       fmt::format("{}-{}", band.low_tokens, band.high_tokens), band.completed,
                       ms_or_dash(band.ttft_ms, band.ttft_ms.mean),
                       ms_or_dash(band.ttft_ms, band.ttft_ms.median),
                       ms_or_dash(band.ttft_ms, band.ttft_ms.p99), band.mean_input_tokens,
                       tokens_or_na(band.mean_cached_input_tokens)));
  }
  w.text("By context: completed turns by prompt_tokens, [low, high); token columns: means.");
}

}  // namespace

void write_multi_turn(Writer& w, const metrics::MultiTurnSummary& summary) {
  w.rule("Multi-turn (by turn)", '-');
  write_by_turn(w, summary);
  write_by_context(w, summary);
  w.text(
      fmt::format("Sessions: {} started, {} completed, {} ended by a failed turn, {} cut short "
                  "by the run's end; {} turns completed",
                  summary.sessions.started, summary.sessions.completed, summary.sessions.failed,
                  summary.sessions.unfinished, summary.sessions.turns_completed));
  const metrics::Distribution& d = summary.session_duration_ms;
  w.text(fmt::format("Session duration (ms, completed): mean {}  p50 {}  p99 {}",
                     ms_or_dash(d, d.mean), ms_or_dash(d, d.median), ms_or_dash(d, d.p99)));
}

}  // namespace bench::report::text
