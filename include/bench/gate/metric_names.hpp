#pragma once
// Which names a gate may test: the numeric top-level keys of a single run's results object,
// results::run_metric_names() (or, for a file at hand, results::numeric_keys()). Checked when
// the flags are parsed, so a misspelt metric is a usage error before anything is sent, never a
// gate that silently cannot fail.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/figures.hpp"
#include "bench/results/run_metrics.hpp"

namespace bench::gate {

/// The results key `metric` names: bench's key for a peer's name of the same figure (vLLM's
/// total_token_throughput, request_goodput, {stat}_e2el_ms: results::aliased_key), else
/// `metric` itself.
std::string metric_key(std::string_view metric);

/// nullopt when `metric`, or the key it is an alias of (metric_key), is one of `known`;
/// otherwise the one-line message, naming the flag, the name and the nearest known name:
/// "--fail-over: 'p99_ttfft_ms' is not a metric of bench's results (did you mean
/// p99_ttft_ms?)".
std::optional<std::string> check_metric(std::string_view flag, std::string_view metric,
                                        const std::vector<std::string>& known);

/// nullopt when the kind of figure under `metric` (or the key it aliases) is in `produced`, the
/// figures `endpoint` can produce (protocol/endpoint.hpp), or is a figure every run has;
/// otherwise the one-line message: "--fail-over: 'p99_ttfa_ms' is a figure of reasoning, which
/// --endpoint completions does not produce". A gate that could never be checked is refused
/// before anything is sent, rather than failing on a null after the run.
std::optional<std::string> check_produced(std::string_view flag, std::string_view metric,
                                          const metrics::FigureSet& produced,
                                          std::string_view endpoint);

}  // namespace bench::gate
