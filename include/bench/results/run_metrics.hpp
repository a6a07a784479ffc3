#pragma once
// The numeric keys of a run's results object: the list of names a gate may test, which is the
// keys of the writer's own table of figures (src/results/run_figures.hpp), so the list and what
// is written cannot drift. The latency distributions' layout is latency_figures.hpp's.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/figures.hpp"
#include "bench/results/latency_figures.hpp"

namespace bench::results {

/// The numeric top-level keys of a run's results object (some, like goodput, are null or
/// "inf" in some runs), in the order they are written.
const std::vector<std::string>& run_metric_names();

/// The kind of figure under `key` (metrics/figures.hpp), which an endpoint may not produce;
/// nullopt for a figure every run has, or a key that is no run figure.
std::optional<metrics::Figure> figure_of_key(std::string_view key);

/// The top-level keys of `results` whose value is a number (not a bool), sorted; for a sweep,
/// those of its first point.
std::vector<std::string> numeric_keys(const nlohmann::json& results);

/// False when some successful request's prompt_tokens were unknown (token_count_source.input
/// "unknown" or "mixed"): the input figures then lack part of their input and are unknown.
/// Files from before this rule wrote 0 or a partial sum for them; this reads those as unknown.
bool input_tokens_known(const nlohmann::json& run);

/// True for the keys whose value needs every input token count: input_throughput,
/// total_throughput, total_input_tokens, mean_prompt_tokens, and the per-GPU, cost and energy
/// figures of input and total tokens.
bool needs_input_tokens(std::string_view key);

/// True for the keys timed from streamed answers' chunks: any statistic of a latency row that
/// needs_stream (TTFT, TTFA, TTST, ITL, ICL, TPOT), the TTFT from the intended start, and the
/// output per user (from TPOT). A request sent with "stream": false has none of them.
bool needs_stream(std::string_view key);

/// True when a run completed requests and streamed none of them (requests_not_streamed ==
/// completed): its needs_stream figures are then null.
bool streamed_none(const nlohmann::json& run);

/// The figure under `key` of a run, or nullopt when it is missing, null, not a number, or
/// needs input token counts the run does not know.
std::optional<double> known_metric(const nlohmann::json& run, std::string_view key);

}  // namespace bench::results
