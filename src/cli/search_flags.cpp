#include "bench/cli/search_flags.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <fmt/format.h>

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/number_checks.hpp"
#include "bench/cli/values.hpp"
#include "bench/gate/slo.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/util/text.hpp"

namespace bench::cli {

namespace {

// --resolution: "5%" (a share of the last passing load) or "N" (a step in the load's unit).
void parse_resolution(const std::string& text, SearchOptions& search) {
  const bool percent = text.ends_with('%');
  const std::optional<double> value = util::parse_finite_double(
      percent ? std::string_view(text).substr(0, text.size() - 1) : std::string_view(text));
  if (!value || *value <= 0 || (percent && *value >= 100)) {
    throw UsageError(
        fmt::format("--resolution: '{}' is neither a share like 5% nor a step > 0 like 4", text));
  }
  if (percent) {
    search.resolution_fraction = *value / 100;
  } else {
    search.resolution_step = *value;
  }
}

// --min-goodput: "95%" or "0.95", a share of sent requests; it needs --goodput's SLOs.
double parse_min_goodput(const std::string& text, const RunOptions& run) {
  const bool percent = text.ends_with('%');
  std::optional<double> value = util::parse_finite_double(
      percent ? std::string_view(text).substr(0, text.size() - 1) : std::string_view(text));
  if (value && percent) *value /= 100;
  if (!value || *value <= 0 || *value > 1) {
    throw UsageError(
        fmt::format("--min-goodput: '{}' is not a share of requests like 95% or 0.95", text));
  }
  if (!run.goodput.any()) {
    throw UsageError(
        "--min-goodput: needs --goodput (which SLOs make a request good, e.g. ttft:500 tpot:50)");
  }
  return *value;
}

}  // namespace

std::string_view slo_window_name(SloWindow window) {
  return window == SloWindow::whole ? "whole" : "steady";
}

std::string_view search_over_name(SearchOver over) {
  return over == SearchOver::rate ? "rate" : "concurrency";
}

void setup_search_flags(CLI::App& command, SearchOptions& search, RawSearchFlags& raw) {
  const std::string group = "Search";
  command
      .add_option("--slo", raw.slos,
                  "An SLO every probe must meet: METRIC<=VALUE or METRIC>=VALUE on a results "
                  "key (p99_ttft_ms<=500, p99_tpot_ms<=50), or error_rate<=0.01; repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  add_choice(command, "--over", search.over, {SearchOver::concurrency, SearchOver::rate},
             search_over_name, "What to search: concurrency or rate (requests/s)")
      ->group(group);
  command.add_option("--start", search.start, "The first probe's load")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  command
      .add_option("--max", search.cap,
                  "No probe above this load (default: 1024 concurrency, 1000 requests/s)")
      ->check(positive_number())
      ->group(group);
  command
      .add_option("--resolution", raw.resolution,
                  "Bisect until the last passing and first failing loads are within this: a "
                  "share (5%) or a step (4)")
      ->capture_default_str()
      ->group(group);
  add_choice(command, "--slo-window", search.slo_window, {SloWindow::steady, SloWindow::whole},
             slo_window_name,
             "What the SLOs judge: steady (a concurrency probe warms up one wave first, "
             "throughputs from the steady-state window) or whole (the whole measured phase, its "
             "opening burst included)")
      ->group(group);
  command
      .add_option("--min-goodput", raw.min_goodput,
                  "A probe also needs this share of its requests good by --goodput's SLOs "
                  "(95%)")
      ->group(group);
  command
      .add_option("--max-time", raw.max_time,
                  "Start no probe after this long (90s, 10m); the answer is the best so far")
      ->group(group);
}

void finish_search_flags(const CLI::App& command, SearchOptions& search, const RawSearchFlags& raw,
                         RunOptions& run) {
  if (!raw.min_goodput.empty()) search.min_goodput_share = parse_min_goodput(raw.min_goodput, run);
  if (raw.slos.empty() && !search.min_goodput_share) {
    throw UsageError(
        "bench search needs at least one --slo (e.g. --slo p99_ttft_ms<=500) or --min-goodput");
  }
  for (const std::string& spec : raw.slos) {
    auto parsed = gate::parse_slo(spec);
    if (const auto* error = std::get_if<gate::GateError>(&parsed)) throw UsageError(error->message);
    if (const auto refusal = gate::check_produced("--slo", std::get<gate::Gate>(parsed).metric,
                                                  protocol::endpoint_spec(run.endpoint).figures,
                                                  protocol::endpoint_name(run.endpoint))) {
      throw UsageError(*refusal);
    }
    search.slos.push_back(std::get<gate::Gate>(parsed));
  }
  parse_resolution(raw.resolution, search);
  if (!raw.max_time.empty()) search.max_time_s = parse_duration_s("--max-time", raw.max_time);
  if (search.cap == 0) search.cap = search.over == SearchOver::rate ? 1000 : 1024;
  if (search.over == SearchOver::concurrency) {  // requests in flight: whole numbers
    search.start = std::max(1.0, std::floor(search.start));
    search.cap = std::max(1.0, std::floor(search.cap));
  }
  if (search.start > search.cap) {
    throw UsageError(fmt::format("--start {:g} is above --max {:g}", search.start, search.cap));
  }
  const bool agent_trees = workload::replays_agent_sessions(run.dataset);
  if (run.dataset.kind == workload::DatasetKind::trace && !agent_trees) {
    throw UsageError(
        "--dataset trace: bench search probes loads it sets itself; a trace "
        "brings its own arrivals (replay it with bench --dataset trace)");
  }
  if (agent_trees) {
    // Recorded agents: a probe's concurrency is session trees at once (AgentPerf's "concurrent
    // agents"). Their requests wait on replies and recorded gaps, so requests in flight never
    // hold at the lanes' count: there is no steady-state window of that load to judge.
    if (search.over != SearchOver::concurrency) {
      throw UsageError(
          "--over rate: recorded agent sessions are searched over concurrency "
          "(session trees at once)");
    }
    if (command.count("--slo-window") > 0 && search.slo_window == SloWindow::steady) {
      throw UsageError(
          "--slo-window steady: not with --trace-format weka (its requests in flight never "
          "hold at the number of sessions, so there is no steady window of that load)");
    }
    search.slo_window = SloWindow::whole;
  }
  if (run.dataset.prefix_shares.size() > 1) {
    throw UsageError(
        "--prefix-share: bench search probes one workload; give a single share (a list "
        "sweeps it in a plain run)");
  }
  const bool by_rate = search.over == SearchOver::rate;
  const char* searched = by_rate ? "--request-rate" : "--concurrency";
  if (command.count(searched) > 0 || (!by_rate && command.count("--max-concurrency") > 0)) {
    throw UsageError(fmt::format("{}: bench search --over {} sets it for each probe", searched,
                                 search_over_name(search.over)));
  }
  if (by_rate && run.ramp_up_strategy != schedule::RampStrategy::none) {
    throw UsageError("--ramp-up-strategy: bench search --over rate probes steady rates");
  }
  if (!run.output.gates.empty()) {
    throw UsageError(fmt::format("{}: bench search judges its probes by --slo",
                                 gate::flag_of(run.output.gates.front().kind)));
  }
  search.warmup_given = command.count("--warmup-requests") + command.count("--warmup-duration") > 0;
}

}  // namespace bench::cli
