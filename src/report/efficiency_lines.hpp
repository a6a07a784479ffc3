#pragma once
// The text report's "Efficiency" block: output tok/s per user (interactivity), token throughput
// per GPU of each kind, cost per million tokens of each kind and the GPUs' energy per token
// (results/efficiency.hpp), each line naming its kind. A figure bench cannot know says why instead
// of showing 0.
#include <string>
#include <vector>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::report {

struct ReportLine {
  std::string label;  // "" for a line of text of its own
  std::string value;
};

std::vector<ReportLine> efficiency_lines(const metrics::RunSummary& summary,
                                         const results::RunContext& context);

}  // namespace bench::report
