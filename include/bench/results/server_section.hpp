#pragma once
// --server-metrics in the report: the server's counter deltas over a point held against bench's
// own counts, for the text report's "Server" section and the JSON "server_metrics" object.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// One line of the Server section: a "label: value" field, or a line of text when label is empty.
struct ServerLine {
  std::string label;
  std::string value;
};

/// `sharing_intended`: the workload shares prefixes on purpose (server_findings.hpp).
std::vector<ServerLine> server_section_lines(const ServerMetricsWindow& window,
                                             const metrics::RunSummary& summary,
                                             bool sharing_intended = false);

nlohmann::json server_metrics_json(const ServerMetricsWindow& window,
                                   const metrics::RunSummary& summary,
                                   bool sharing_intended = false);

/// A figure the server may not have given: the number, or null when absent or not finite.
nlohmann::json number_or_null(const std::optional<double>& value);

}  // namespace bench::results
