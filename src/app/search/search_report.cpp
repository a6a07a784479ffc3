#include "bench/app/search/search_report.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "bench/gate/slo.hpp"
#include "bench/results/format.hpp"
#include "bench/results/writer.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

std::string load_text(const SearchSetup& setup, double load) {
  return setup.variable == SweepVariable::request_rate ? fmt::format("rate {:g} req/s", load)
                                                       : fmt::format("concurrency {:g}", load);
}

json probe_json(const ProbeOutcome* probe) {
  if (probe == nullptr) return nullptr;
  return {{"load", probe->load},
          {"met", probe->met},
          {"failed_slo", probe->failed_slo.empty() ? json() : json(probe->failed_slo)},
          {"load_held", probe->load_held},
          {"output_throughput", probe->output_throughput},
          {"median_e2e_latency_ms", probe->latency_ms}};
}

std::string resolution_text(const LoadSearchPlan& plan) {
  return plan.step > 0 ? fmt::format("{:g}", plan.step) : fmt::format("{:g}%", plan.relative * 100);
}

// Why the search ended, when it ended before its bracket was resolved.
std::string ending(const SearchSetup& setup, const LoadSearch& search) {
  switch (search.end()) {
    case SearchEnd::saturated: {
      const auto& probes = search.probes();
      const ProbeOutcome& last = probes.back();
      return fmt::format(
          "; the search stopped at saturation: at {} output tok/s rose less than {:g}% while "
          "median E2E latency rose more than {:g}%, so more load only queues",
          load_text(setup, last.load), kSaturationThroughputGrowth * 100,
          kSaturationLatencyGrowth * 100);
    }
    case SearchEnd::time_budget:
      return fmt::format(
          "; --max-time {:g}s was spent after {} probes: the best answer so far, "
          "not resolved to --resolution {}",
          setup.max_time_s, search.probes().size(), resolution_text(setup.plan));
    case SearchEnd::interrupted:
      return fmt::format("; interrupted after {} probes: the best answer so far",
                         search.probes().size());
    default: return "";
  }
}

}  // namespace

std::vector<gate::Gate> probe_slos(const cli::SearchOptions& search) {
  std::vector<gate::Gate> slos = search.slos;
  if (search.min_goodput_share) {
    gate::Gate share{gate::GateKind::fail_under, kGoodRequestShare, *search.min_goodput_share, ""};
    share.spec = gate::slo_text(share);
    slos.push_back(share);
  }
  return slos;
}

namespace {

void view_one(json& results, cli::SloWindow window) {
  const json* good = results.contains("good_requests") ? &results["good_requests"] : nullptr;
  const double sent = results.value("sent", 0.0);
  results[kGoodRequestShare] =
      good != nullptr && good->is_number() && sent > 0 ? json(good->get<double>() / sent) : json();
  const auto steady = results.find("steady_state");
  if (window != cli::SloWindow::steady || steady == results.end() || !steady->is_object()) return;
  // Its figures under the run's own names: the throughputs, and the latencies when known (a
  // run past its raw-value budget keeps its whole-run latencies).
  for (const auto& [key, value] : steady->items()) {
    const auto whole = results.find(key);
    const bool throughput = key.ends_with("_throughput");
    if (whole != results.end() && (value.is_number() || (throughput && value.is_null()))) {
      *whole = value;
    }
  }
}

}  // namespace

json slo_view(const json& results, cli::SloWindow window) {
  json view = results;
  view_one(view, window);
  const auto runs = view.find(results::key::repeat_runs);
  if (runs != view.end() && runs->is_array()) {
    for (json& run : *runs) {
      if (run.is_object()) view_one(run, window);
    }
  }
  return view;
}

namespace {

// load_not_held for one run's results object.
std::string run_not_held(const SearchSetup& setup, double load, const json& results) {
  const double sent = results.value("sent", 0.0);
  if (setup.variable == SweepVariable::concurrency && sent < load) {
    return fmt::format(
        "to hold its load (only {:g} measured requests were sent, so fewer than {:g} were ever "
        "in flight)",
        sent, load);
  }
  const auto steady = results.find("steady_state");
  if (setup.slo_window == cli::SloWindow::steady && steady != results.end() && steady->is_null()) {
    return "to hold its load (no steady-state window: in flight never stayed at 90% of the "
           "target, and --slo-window steady judges that window)";
  }
  return "";
}

}  // namespace

std::string load_not_held(const SearchSetup& setup, double load, const json& results) {
  std::string why = run_not_held(setup, load, results);
  const auto runs = results.find(results::key::repeat_runs);
  if (!why.empty() || runs == results.end() || !runs->is_array()) return why;
  for (const json& run : *runs) {
    if (run.is_object() && !(why = run_not_held(setup, load, run)).empty()) return why;
  }
  return why;
}

std::string failed_slo(const std::vector<gate::Gate>& slos, const json& results, gate::GateOn on) {
  for (const gate::Gate& slo : slos) {
    const gate::GateOutcome outcome = gate::evaluate({&slo, 1}, results, on);
    if (!outcome.failed()) continue;
    const gate::Violation& violation = outcome.violations.front();
    const std::string metric =
        slo.kind == gate::GateKind::max_error_rate ? "error_rate" : slo.metric;
    // The figure, or why it could not be read (an unknown figure fails its SLO).
    const std::string why =
        violation.value ? fmt::format("{} = {:.4g}", metric, *violation.value) : violation.message;
    return fmt::format("{} ({}{})", gate::slo_text(slo), why,
                       violation.point.empty() ? "" : ", " + violation.point);
  }
  return "";
}

std::string search_message(const SearchSetup& setup, const LoadSearch& search) {
  const ProbeOutcome* passing = search.last_passing();
  const ProbeOutcome* failing = search.first_failing();
  if (passing == nullptr) {
    if (failing == nullptr) return "bench search: no answer: no probe was measured";
    return fmt::format(
        "bench search: no answer: the first probe, {}, already fails {}; lower --start or "
        "relax the SLO{}",
        load_text(setup, failing->load), failing->failed_slo, ending(setup, search));
  }
  std::string beyond;
  if (failing != nullptr) {
    beyond = fmt::format("; {} fails {}", load_text(setup, failing->load), failing->failed_slo);
  } else if (search.end() == SearchEnd::cap_met) {
    beyond = fmt::format("; it is the --max cap: no probe failed, the limit lies above it");
  }
  return fmt::format("bench search: answer: {} meets every SLO{}{}",
                     load_text(setup, passing->load), beyond, ending(setup, search));
}

json search_to_json(const SearchSetup& setup, const LoadSearch& search,
                    const std::vector<json>& probes) {
  json slos = json::array();
  for (const gate::Gate& slo : setup.slos) slos.push_back(gate::slo_text(slo));
  json probe_list = json::array();
  for (const ProbeOutcome& probe : search.probes()) probe_list.push_back(probe_json(&probe));
  const std::optional<double> answer = search.answer();
  json described = {{"variable", sweep_variable_name(setup.variable)},
                    {"slos", slos},
                    {"slo_window", cli::slo_window_name(setup.slo_window)},
                    {"warmup", setup.warmup},
                    {"start", setup.plan.start},
                    {"cap", setup.plan.cap},
                    {"resolution", resolution_text(setup.plan)},
                    {"max_time_s", setup.max_time_s > 0 ? json(setup.max_time_s) : json()},
                    {"end", search_end_name(search.end())},
                    {"answer", answer ? json(*answer) : json()},
                    {"message", search_message(setup, search)},
                    {"last_passing", probe_json(search.last_passing())},
                    {"first_failing", probe_json(search.first_failing())},
                    {"probes", probe_list}};
  // The probes as a sweep in load order, as the table and the HTML report read one.
  std::vector<std::size_t> order(probes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto& outcomes = search.probes();
  std::stable_sort(order.begin(), order.end(), [&outcomes](std::size_t a, std::size_t b) {
    return outcomes[a].load < outcomes[b].load;
  });
  json values = json::array();
  std::vector<json> points;
  for (std::size_t index : order) {
    values.push_back(outcomes[index].load);
    points.push_back(probes[index]);
  }
  json out = results::sweep_to_json(sweep_variable_name(setup.variable), values, points);
  out[results::key::kind] = results::kind_name(results::Kind::search);
  out["search"] = std::move(described);
  return out;
}

}  // namespace bench::app
