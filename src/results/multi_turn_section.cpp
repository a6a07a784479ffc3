#include "bench/results/multi_turn_section.hpp"

#include <string_view>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"

namespace bench::results {
namespace {

using nlohmann::json;
namespace key = results::key;

// mean, median and p99 of a distribution under {stat}_{name}_ms; null (never 0) when empty.
void put_three(json& out, std::string_view name, const metrics::Distribution& d) {
  const auto value = [&d](double figure) { return d.count > 0 ? json(figure) : json(nullptr); };
  out[results::distribution_key("mean", name)] = value(d.mean);
  out[results::distribution_key("median", name)] = value(d.median);
  out[results::distribution_key("p99", name)] = value(d.p99);
}

std::string ms_or_dash(const metrics::Distribution& d, double figure) {
  return d.count > 0 ? fmt::format("{:.2f}", figure) : std::string("-");
}

// A mean token count that is -1 when unknown: null in JSON, "n/a" in text (never 0).
json tokens_or_null(double mean) { return mean >= 0 ? json(mean) : json(nullptr); }
std::string tokens_or_na(double mean) {
  return mean >= 0 ? fmt::format("{:.1f}", mean) : std::string("n/a");
}

json by_context_json(const std::vector<metrics::ContextBandFigures>& bands) {
  json out = json::array();
  for (const metrics::ContextBandFigures& band : bands) {
    json row = {{key::context_tokens_low, band.low_tokens},
                {key::context_tokens_high, band.high_tokens},
                {key::turn_completed, band.completed}};
    put_three(row, "ttft", band.ttft_ms);
    row[key::mean_input_tokens] = band.mean_input_tokens;
    row[key::mean_cached_input_tokens] = tokens_or_null(band.mean_cached_input_tokens);
    out.push_back(std::move(row));
  }
  return out;
}

// TTFT against the context length, one line a band of prompt tokens.
void add_context_lines(const metrics::MultiTurnSummary& summary, std::vector<std::string>& lines) {
  if (summary.by_context.empty()) return;
  lines.push_back(fmt::format("{:>16}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}", "context tokens",
                              "completed", "TTFT mean", "TTFT p50", "TTFT p99", "input tokens",
                              "cached"));
  for (const metrics::ContextBandFigures& band : summary.by_context) {
    lines.push_back(fmt::format("{:>16}{:>11}{:>12}{:>12}{:>12}{:>14.1f}{:>10}",
                                fmt::format("{}-{}", band.low_tokens, band.high_tokens),
                                band.completed, ms_or_dash(band.ttft_ms, band.ttft_ms.mean),
                                ms_or_dash(band.ttft_ms, band.ttft_ms.median),
                                ms_or_dash(band.ttft_ms, band.ttft_ms.p99), band.mean_input_tokens,
                                tokens_or_na(band.mean_cached_input_tokens)));
  }
  lines.push_back(
      "By context: completed turns by prompt_tokens, [low, high); token columns: means.");
}

}  // namespace

json multi_turn_json(const metrics::MultiTurnSummary& summary) {
  json by_turn = json::array();
  for (const metrics::TurnFigures& turn : summary.by_turn) {
    json row = {{key::turn, turn.turn},
                {key::turn_requests, turn.requests},
                {key::turn_completed, turn.completed}};
    put_three(row, "ttft", turn.ttft_ms);
    row[key::mean_input_tokens] = tokens_or_null(turn.mean_input_tokens);
    row[key::mean_cached_input_tokens] = tokens_or_null(turn.mean_cached_input_tokens);
    row[key::mean_computed_input_tokens] = tokens_or_null(turn.mean_computed_input_tokens);
    by_turn.push_back(std::move(row));
  }
  json out = {{key::by_turn, std::move(by_turn)},
              {key::by_context, by_context_json(summary.by_context)},
              {key::sessions_started, summary.sessions.started},
              {key::sessions_completed, summary.sessions.completed},
              {key::sessions_failed, summary.sessions.failed},
              {key::sessions_unfinished, summary.sessions.unfinished},
              {key::turns_completed, summary.sessions.turns_completed}};
  put_three(out, key::session_duration, summary.session_duration_ms);
  return out;
}

std::vector<std::string> multi_turn_lines(const metrics::MultiTurnSummary& summary) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{:>6}{:>10}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}{:>10}", "turn",
                              "requests", "completed", "TTFT mean", "TTFT p50", "TTFT p99",
                              "input tokens", "cached", "computed"));
  for (const metrics::TurnFigures& turn : summary.by_turn) {
    lines.push_back(fmt::format(
        "{:>6}{:>10}{:>11}{:>12}{:>12}{:>12}{:>14}{:>10}{:>10}", turn.turn, turn.requests,
        turn.completed, ms_or_dash(turn.ttft_ms, turn.ttft_ms.mean),
        ms_or_dash(turn.ttft_ms, turn.ttft_ms.median), ms_or_dash(turn.ttft_ms, turn.ttft_ms.p99),
        tokens_or_na(turn.mean_input_tokens), tokens_or_na(turn.mean_cached_input_tokens),
        tokens_or_na(turn.mean_computed_input_tokens)));
  }
  lines.push_back("TTFT in ms; input tokens: mean prompt_tokens of the turn's completed requests;");
  lines.push_back("cached and computed: their split as the server's usage said (n/a: not said).");
  add_context_lines(summary, lines);
  lines.push_back(fmt::format(
      "Sessions: {} started, {} completed, {} ended by a failed turn, {} cut short by the "
      "run's end; {} turns completed",
      summary.sessions.started, summary.sessions.completed, summary.sessions.failed,
      summary.sessions.unfinished, summary.sessions.turns_completed));
  const metrics::Distribution& d = summary.session_duration_ms;
  lines.push_back(fmt::format("Session duration (ms, completed): mean {}  p50 {}  p99 {}",
                              ms_or_dash(d, d.mean), ms_or_dash(d, d.median),
                              ms_or_dash(d, d.p99)));
  return lines;
}

}  // namespace bench::results
