#pragma once
// The pieces of the HTML report, shared between its files: html_report.cpp (the page, its
// header and the definitions), html_run.cpp (one run's tables), html_charts.cpp (the charts
// built from results) and html_sweep.cpp (the sweep table and its points).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::report::html {

using nlohmann::json;

// Each kind of token throughput keeps one colour on every chart (the page's --output colour is
// the output's), so a reader never has to relearn which line is which.
inline constexpr const char* kOutputColor = "#1f5fbf";
inline constexpr const char* kInputColor = "#f0a04b";
inline constexpr const char* kTotalColor = "#6b7280";

/// Escaped for HTML text and attribute values.
std::string esc(std::string_view text);

/// At most `max_chars` code points of `text`, with "..." when cut.
std::string clipped(std::string_view text, std::size_t max_chars);

/// The warnings that must be seen before any figure: failures, interruption, estimated or
/// unknown token counts, cancelled requests. Empty when the run was clean.
std::string run_alerts(const json& run);

/// A single run's sections below the page header: throughput (headline), latency, charts,
/// token counts, errors. `id_prefix` keeps element ids unique when a page holds several runs.
std::string run_sections(const json& run, std::string_view id_prefix);

/// The run's "Efficiency" card: per user, per GPU of each kind, cost and energy; empty for a
/// file from before these figures.
std::string efficiency_section(const json& run, std::string_view id_prefix);

/// The run's "Server" section (--server-metrics): empty when the results carry none.
std::string server_section(const json& run, std::string_view id_prefix);

/// The run's "Per server" table (--base-url repeated): empty when the results carry none.
std::string per_server_section(const json& run, std::string_view id_prefix);

/// The run's "Multi-turn" table (--multi-turn): empty when the results carry none.
std::string multi_turn_section(const json& run, std::string_view id_prefix);
/// A replayed agent trace's section (its "agent_trace"): empty for every other run.
std::string agent_trace_section(const json& run, std::string_view id_prefix);
/// What other tools would have printed for the run: `bench report --as`'s JSON.
std::string peer_views_section(const json& views);

/// The label of a run's load: "32 max in flight (closed loop)", "16 req/s offered, ...".
std::string load_label(const json& run);

/// Charts, each one <figure> holding one <svg>; empty when the data is absent.
std::string cdf_figure(const json& run, std::string_view metric, std::string_view id);
std::string token_timeline_figure(const json& run, std::string_view id);
std::string requests_timeline_figure(const json& run, std::string_view id);
std::string sweep_throughput_figure(const json& sweep);
std::string sweep_latency_figures(const json& sweep);

/// The sweep's efficiency frontier card (report/frontier.hpp): the chart, or a note saying it
/// needs --gpus.
std::string frontier_section(const json& sweep);
/// A sweep of an agent trace: InferenceX's view (inferencex_view.hpp); empty for others.
std::string inferencex_section(const json& sweep);

/// The sweep's sections: the one-row-per-point table, its charts, then each point collapsed.
std::string sweep_sections(const json& sweep);

}  // namespace bench::report::html
