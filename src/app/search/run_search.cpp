// `bench search`: probes chosen by LoadSearch, each measured through the path of every run
// (measure_repeated), judged by the SLOs, until the largest load meeting them is found.
#include "bench/app/search/run_search.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bench/app/run/run_stages.hpp"
#include "bench/app/search/load_search.hpp"
#include "bench/app/search/search_report.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/report/frontier.hpp"
#include "bench/report/report.hpp"
#include "bench/results/format.hpp"
#include "bench/results/writer.hpp"

namespace bench::app {

using nlohmann::json;

namespace {

// Probes a search may take, and so the prompt streams between one probe's repeats.
constexpr std::size_t kMaxProbes = 256;

SearchSetup search_setup(const cli::SearchOptions& search) {
  SearchSetup setup;
  const bool by_rate = search.over == cli::SearchOver::rate;
  setup.variable = by_rate ? SweepVariable::request_rate : SweepVariable::concurrency;
  setup.slos = probe_slos(search);
  setup.slo_window = search.slo_window;
  setup.plan = {search.start, search.cap, !by_rate, search.resolution_fraction,
                search.resolution_step};
  setup.max_time_s = search.max_time_s;
  const bool whole = search.slo_window == cli::SloWindow::whole;
  setup.warmup = search.warmup_given ? "as given (--warmup-*)"
                 : by_rate || whole  ? "none"
                                     : "one wave: the probe's concurrency in requests";
  return setup;
}

void print_search(const OutputPlan& output, const json& results, const std::vector<json>& probes,
                  const std::string& message, std::ostream& out) {
  switch (output.format) {
    case cli::OutputFormat::json:
      out << results_for_scripts(output, results).dump(2) << "\n";
      break;
    case cli::OutputFormat::csv: out << results::to_csv(probes); break;
    case cli::OutputFormat::text:
      out << report::render_sweep_table(results) << "\n"
          << report::render_frontier_table(results) << "\n"
          << message << "\n";
      break;
  }
  out.flush();
}

// Ends the search before its next probe when asked to: Ctrl-C, --max-time spent, or the
// probe cap reached (each said as how the search ended).
void check_budget(LoadSearch& searcher, const cli::SearchOptions& search,
                  std::chrono::steady_clock::time_point started, std::size_t probes,
                  const StopFlag& stop) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  if (stop.load()) searcher.stop(SearchEnd::interrupted);
  if (search.max_time_s > 0 && elapsed.count() >= search.max_time_s) {
    searcher.stop(SearchEnd::time_budget);
  }
  if (probes == kMaxProbes) searcher.stop(SearchEnd::time_budget);
}

// The probe at `load`, measured through the path of every run; its results, or the exit code
// that ends the search (said on `err`).
std::variant<json, int> measure_probe(const RunPlan& plan, const PreparedRun& prepared,
                                      RunServices& services, std::size_t index,
                                      const StopFlag& stop, std::ostream& err) {
  LoadPoint point = plan.points.front();
  point.prompt_stream = index;
  try {
    PointReport report =
        measure_repeated(plan, prepared, point, services.tools(), kMaxProbes, stop, err);
    if (!report.stopped_early.empty()) {
      err << "bench: error: " << report.stopped_early << "\n";
      return cli::kExitRunFailed;
    }
    return std::move(report.results);
  } catch (const std::invalid_argument& error) {
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  }
}

// A probe judged by the SLOs on the figures its window gives them (slo_view); an interrupted
// probe meets none, and a probe that could not hold its load is no answer (load_not_held).
ProbeOutcome judge_probe(double load, const json& results, const SearchSetup& setup,
                         gate::GateOn gate_on, const StopFlag& stop) {
  ProbeOutcome outcome;
  outcome.load = load;
  outcome.failed_slo = load_not_held(setup, load, results);
  outcome.load_held = outcome.failed_slo.empty();
  if (outcome.load_held) {
    outcome.failed_slo = failed_slo(setup.slos, slo_view(results, setup.slo_window), gate_on);
  }
  outcome.output_throughput = results.value("output_throughput", 0.0);
  outcome.latency_ms = results.value("median_e2e_latency_ms", 0.0);
  outcome.met = outcome.failed_slo.empty() && !(stop.load() && results.value("interrupted", false));
  return outcome;
}

}  // namespace

int run_search(const cli::RunOptions& options, const cli::SearchOptions& search, StopFlag& stop,
               std::ostream& out, std::ostream& err) {
  const SearchSetup setup = search_setup(search);
  const ProbePlanner planner(options, search);  // the planning step: below, only plans
  const RunPlan plan = planner.at(search.start);
  RunServices services;
  if (!open_live(plan, services, err)) return cli::kExitUsage;
  int failed_early = cli::kExitOk;
  std::optional<PreparedRun> prepared = plan_and_prepare(plan, failed_early, err);
  if (!prepared) return failed_early;
  stop.begin_measuring();  // before it, a signal ends the process: nothing was measured
  if (!open_services(plan, *prepared, services, err)) return cli::kExitRunFailed;
  const auto started = std::chrono::steady_clock::now();
  LoadSearch searcher(setup.plan);
  std::vector<json> probes;
  while (const std::optional<double> load = searcher.next()) {
    check_budget(searcher, search, started, probes.size(), stop);
    if (!searcher.next()) break;
    std::variant<json, int> measured =
        measure_probe(planner.at(*load), *prepared, services, probes.size(), stop, err);
    if (const int* exit_code = std::get_if<int>(&measured)) return *exit_code;
    probes.push_back(std::move(std::get<json>(measured)));
    const ProbeOutcome outcome =
        judge_probe(*load, probes.back(), setup, plan.output.gate_on, stop);
    searcher.record(outcome);
    if (!plan.output.quiet) {
      err << fmt::format("bench search: probe {}: {} {:g}: {}\n", probes.size(),
                         sweep_variable_name(setup.variable), *load,
                         outcome.met ? "meets every SLO" : "fails " + outcome.failed_slo);
    }
  }
  const std::string message = search_message(setup, searcher);
  json results = search_to_json(setup, searcher, probes);
  // The requests' definition, without the loads (the search chose those): two searches of one
  // workload share a fingerprint whatever loads they probed.
  stamp_workload(results, plan, planner.workload(), {},
                 services.flush ? &*services.flush : nullptr);
  print_search(plan.output, results, probes, message, out);
  // --html draws the probes as the sweep they are, in load order (report's is_sweep).
  RunResults files;
  files.results = results;
  const bool written = write_files(plan.output, files, services.log.get(), err);
  if (services.live) {
    const std::string note = services.live->finish(stop);
    if (!plan.output.quiet) err << note;
  }
  if (searcher.end() == SearchEnd::interrupted) return cli::kExitInterrupted;
  if (!written) return cli::kExitRunFailed;
  return searcher.answer() ? cli::kExitOk : cli::kExitGateFailed;
}

}  // namespace bench::app
