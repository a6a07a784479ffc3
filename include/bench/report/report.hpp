#pragma once
// Renders a RunSummary and results objects for people: the text report, the sweep table, the
// repeats' figures. Output tok/s is the headline; input and total stand beside it, each
// labelled; a bare "tok/s" never appears. The results objects themselves are written by
// results/writer.hpp.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::report {

/// The human report (for stdout). Multi-line, ends with a newline.
std::string render_text(const metrics::RunSummary& summary, const results::RunContext& context);

/// Several servers (--base-url repeated): the text report's per-server table, from the run
/// object's "per_server" (results/per_server.hpp); empty when it has none.
std::string render_per_server(const nlohmann::json& run);

/// The sweep table of the text report: one row per point.
std::string render_sweep_table(const nlohmann::json& sweep);

/// The text report of a point measured several times (--repeat N; results/repeats.hpp): each
/// throughput and median/p99 latency as "mean ± half-width (95% CI, Student's t, N repeats)",
/// the half-width in % of the mean, and each repeat's value. `title` leads the first line
/// ("concurrency 8"; empty for a single run).
std::string render_repeats(const nlohmann::json& point, std::string_view title = "");

}  // namespace bench::report
