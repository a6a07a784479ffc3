#include "bench/results/multi_turn_section.hpp"

#include <string_view>

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

// A mean token count that is -1 when unknown: null (never 0).
json tokens_or_null(double mean) { return mean >= 0 ? json(mean) : json(nullptr); }

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

}  // namespace bench::results
