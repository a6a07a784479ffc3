#pragma once
// The numeric keys of a run's results object: the distribution layout that the writer
// (src/report/json_report.cpp) uses and the list of names a gate may test. Gates take their
// names from here, and tests/results/run_metrics_test.cpp holds the list to what the writer
// really writes.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::results {

/// The statistics of every latency distribution, in the order they are written.
inline constexpr std::array<std::string_view, 7> kDistributionStats = {
    "mean", "median", "std", "p90", "p95", "p99", "max"};

/// The latency distributions of a run, each written as {stat}_{name}_ms.
inline constexpr std::array<std::string_view, 5> kDistributions = {"ttft", "itl", "icl", "tpot",
                                                                   "e2e_latency"};

/// "{stat}_{name}_ms", the SGLang/vLLM key layout: distribution_key("p99", "ttft") is
/// "p99_ttft_ms".
std::string distribution_key(std::string_view stat, std::string_view name);

/// The numeric top-level keys of a run's results object (some, like goodput, are null or
/// "inf" in some runs), in the order they are written.
const std::vector<std::string>& run_metric_names();

/// The top-level keys of `results` whose value is a number (not a bool), sorted; for a sweep,
/// those of its first point.
std::vector<std::string> numeric_keys(const nlohmann::json& results);

}  // namespace bench::results
