#pragma once
// The numeric figures of a run object, one row each: its key and how it is written. The writer
// (json_report.cpp) writes every row and run_metric_names() (the names a gate may test) is
// their keys, so the list of names and what is written are one table. A new figure is one row.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/figures.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// What a row reads. `input_known`: every counted request's prompt_tokens were known.
struct FigureInput {
  const metrics::RunSummary& summary;
  const RunContext& context;
  bool input_known;
};

struct RunFigure {
  std::string key;
  // The value: a number, or null (never 0) when unknown; "inf" for an unlimited request_rate.
  std::function<nlohmann::json(const FigureInput&)> value;
  // The kind of figure it is, which an endpoint may not produce (metrics/figures.hpp); none
  // for the figures every run has (counts, end-to-end latency, load).
  std::optional<metrics::Figure> figure = std::nullopt;
  // vLLM's key for the same figure where its result file names it otherwise
  // (vllm/benchmarks/serve.py); empty when it uses bench's key or has none. SGLang's names are
  // bench's. The latency distributions' peer names are in latency_figures.hpp.
  std::string_view vllm_key = {};
};

/// A figure that needs every request's input token count: null when one is unknown.
nlohmann::json if_known(bool known, double value);

/// A statistic of `d`: null, never 0, when `d` holds no values (no request completed, or none
/// had two tokens for a TPOT).
nlohmann::json stat(const metrics::Distribution& d, double metrics::Distribution::*field);

/// vLLM's --ramp-up-strategy was given: the offered rate is not one number.
bool ramp_up(const RunContext& context);

/// Every numeric top-level figure of a run object, in the order of run_metric_names().
const std::vector<RunFigure>& run_figures();

/// The row vLLM's result file names `vllm_name` (its vllm_key, else its own key); nullptr when
/// none is.
const RunFigure* vllm_run_figure(std::string_view vllm_name);

/// The row whose key is `key` (SGLang's names are bench's); nullptr when there is none.
const RunFigure* run_figure(std::string_view key);

}  // namespace bench::results
