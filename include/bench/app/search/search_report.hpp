#pragma once
// What `bench search` reports: its results object ("kind": "search": the question, the answer
// and how the search ended, the last passing and first failing probes, every probe as a point),
// the answer said in words, and the probes as a sweep in load order (for the table and HTML).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/app/plan/sweep_variable.hpp"
#include "bench/app/search/load_search.hpp"
#include "bench/cli/options.hpp"
#include "bench/gate/gate.hpp"

namespace bench::app {

struct SearchSetup {
  SweepVariable variable = SweepVariable::concurrency;  // what the probes' loads set
  std::vector<gate::Gate> slos;                         // as parsed from --slo
  LoadSearchPlan plan;
  double max_time_s = 0;  // --max-time; 0 = none
  std::string warmup;     // how each probe warmed up, for the reader
  cli::SloWindow slo_window = cli::SloWindow::steady;
};

/// The key --min-goodput's SLO reads: good_requests / sent of a probe (slo_view adds it).
inline constexpr const char* kGoodRequestShare = "good_request_share";

/// The SLOs a probe is held to: --slo's in order, then --min-goodput's as
/// "good_request_share>=P".
std::vector<gate::Gate> probe_slos(const cli::SearchOptions& search);

/// The figures a probe's SLOs read, in the probe and in each of its repeats: with
/// SloWindow::steady the throughputs and latencies its steady_state object holds replace the
/// whole run's (where it has one: a run too short for one keeps its whole-run figures, and a
/// latency unknown there, past the raw-value budget, keeps the whole run's); good_request_share
/// is added (null without --goodput, or when nothing was sent).
nlohmann::json slo_view(const nlohmann::json& results, cli::SloWindow window);

/// {"schema_version", "bench_version", "kind": "search", "search": {variable, slos, slo_window:
/// "whole", start, cap, resolution, max_time_s, end, answer (null when none), message,
/// last_passing, first_failing, probes: [{load, met, failed_slo}]}, "sweep": {variable,
/// values}, "points": [probe results in load order]}. `probes` are the probes' results objects
/// in the order they were measured (LoadSearch::probes()).
nlohmann::json search_to_json(const SearchSetup& setup, const LoadSearch& search,
                              const std::vector<nlohmann::json>& probes);

/// The answer in words, one line or two: the load, what failed beyond it, how the search ended.
std::string search_message(const SearchSetup& setup, const LoadSearch& search);

/// Why a probe at `load` is no measurement of it, worded to follow "fails": "to hold its load
/// (...)" when a closed loop sent fewer measured requests than its concurrency, or when the SLOs
/// read its steady state and it has none (the probe and each of its repeats); "" when it held.
std::string load_not_held(const SearchSetup& setup, double load, const nlohmann::json& results);

/// The first SLO a probe's results fail, as "p99_ttft_ms<=500 (gate failed: p99_ttft_ms = 612
/// > 500 ...)"; empty when all hold.
std::string failed_slo(const std::vector<gate::Gate>& slos, const nlohmann::json& results,
                       gate::GateOn on);

}  // namespace bench::app
