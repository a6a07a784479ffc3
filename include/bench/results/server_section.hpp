#pragma once
// --server-metrics in the results: the server's counter deltas over a point held against bench's
// own counts, the JSON "server_metrics" object; the text report words the same figures
// (report/text_server.cpp).
#include <optional>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// `sharing_intended`: the workload shares prefixes on purpose (server_findings.hpp).
nlohmann::json server_metrics_json(const ServerMetricsWindow& window,
                                   const metrics::RunSummary& summary,
                                   bool sharing_intended = false);

/// bench's input tokens, held against the server's prompt tokens; nullopt when some successful
/// request's prompt_tokens were unknown.
std::optional<double> bench_input_tokens(const metrics::RunSummary& summary);

/// The server's count less bench's; nullopt when either is unknown or the server's not finite.
std::optional<double> count_difference(const std::optional<double>& server,
                                       const std::optional<double>& bench);

/// Whether the server's and bench's token counts disagree enough to be a finding: the difference
/// (server - bench) beyond 1% of bench's count (one of the two miscounts, or other clients share
/// the server). False when either is unknown or bench's count is 0. The text and HTML reports'
/// one rule.
bool counts_disagree(const std::optional<double>& difference, const std::optional<double>& bench);

/// A figure the server may not have given: the number, or null when absent or not finite.
nlohmann::json number_or_null(const std::optional<double>& value);

}  // namespace bench::results
