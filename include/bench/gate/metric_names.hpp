#pragma once
// Which names a gate may test: the numeric top-level keys of a single run's results object
// (README "JSON results"). Checked when the flags are parsed, so a misspelt metric is a usage
// error before anything is sent, never a gate that silently cannot fail.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::gate {

/// The numeric top-level keys a run's results object holds (src/report/json_report.cpp; some,
/// like goodput, are null or "inf" in some runs), in the order the results list them.
/// tests/gate/metric_names_test.cpp checks it against what to_json writes.
const std::vector<std::string>& run_metric_names();

/// The top-level keys of `results` whose value is a number (not a bool), sorted; for a sweep,
/// those of its first point. For checking names against a results file the caller holds.
std::vector<std::string> numeric_keys(const nlohmann::json& results);

/// nullopt when `metric` is one of `known`; otherwise the one-line message, naming the flag,
/// the name and the nearest known name: "--fail-over: 'p99_ttfft_ms' is not a metric of
/// bench's results (did you mean p99_ttft_ms?)". vLLM's names for the same figures
/// (total_token_throughput, request_goodput, *_e2el_ms) are answered with bench's.
std::optional<std::string> check_metric(std::string_view flag, std::string_view metric,
                                        const std::vector<std::string>& known);

}  // namespace bench::gate
