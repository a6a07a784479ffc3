#include "bench/app/run_benchmark.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/shard_results.hpp"
#include "bench/app/workload_fingerprint.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/cli/values.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/report/terminal_chart.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/format.hpp"
#include "bench/results/workload.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/generator_version.hpp"
#include "run_stages.hpp"

namespace bench::app {

using nlohmann::json;

// The JSON as written for scripts: bench's keys, or a peer's view with --json-compat.
json results_for_scripts(const cli::RunOptions& options, const json& object) {
  const auto compat = results::parse_compat(options.json_compat);
  return compat ? results::compat_view(object, *compat) : object;
}

// What a results object (a run, a sweep point, a sweep) records of its workload, over its
// load `points`, and of --flush-cache (results/workload.hpp).
void stamp_workload(json& results, const cli::RunOptions& options, const json& definition,
                    const std::vector<LoadPoint>& points, const CacheFlush* flush) {
  results[results::key::workload] = results::workload_to_json(
      {workload_fingerprint(definition, points), workload::kPromptGeneratorVersion, options.seed});
  results[results::key::prefix_cache_flush] =
      flush != nullptr ? json(flush_method_name(flush->method())) : json(nullptr);
}

// False when the request log cannot be created (said on `err`).
bool open_services(const cli::RunOptions& options, const RunPlan& plan,
                   PreparedRun& prepared, RunServices& services, std::ostream& err) {
  try {
    if (!options.save_requests.empty()) {
      services.log = std::make_unique<RecordLog>(options.save_requests);
    }
  } catch (const std::exception& error) {
    err << "bench: error: " << error.what() << "\n";
    return false;
  }
  if (options.flush_cache) {
    services.flush.emplace(
        FlushServer{prepared.target.base_url, &plan.headers, plan.engine, prepared.redactor.get()},
        prepared.request, err, options.quiet);
  }
  if (options.server_metrics) {
    std::vector<MetricsServer> servers;
    for (const std::string& url :
         server_metrics_urls(options.server_metrics_urls, prepared.target.base_urls)) {
      servers.push_back({url, &plan.headers, plan.engine,
                         util::redactor_for_request(plan.headers, url)});
    }
    services.scraper.emplace(std::move(servers), options.server_metrics_interval_s);
  }
  return true;
}

// The results files; false when one could not be written (said on `err`).
bool write_files(const cli::RunOptions& options, const RunResults& run, RecordLog* log,
                 std::ostream& err) {
  bool written = true;
  auto attempt = [&](auto&& action) {
    try {
      action();
    } catch (const std::exception& error) {
      err << "bench: error: " << error.what() << "\n";
      written = false;
    }
  };
  if (!options.output_file.empty() && !run.results.is_null()) {
    attempt([&] {
      write_file_atomically(options.output_file,
                            results_for_scripts(options, run.results).dump(2) + "\n");
    });
  }
  if (!options.html_path.empty() && !run.results.is_null()) {
    attempt([&] {
      write_file_atomically(options.html_path, report::render_html_report(run.results));
    });
  }
  if (log != nullptr) attempt([&] { log->commit(); });
  return written;
}

namespace {

// --multi-turn: --num-prompts counts sessions, each turn of one a request; a sharegpt
// conversation's number of turns is known only when its session starts.
std::string describe_sessions(const cli::RunOptions& options, const std::string& bound) {
  const workload::MultiTurnOptions& multi_turn = options.multi_turn;
  const bool random = options.dataset.kind == workload::DatasetKind::random;
  std::string turns = fmt::format("of {} turns", multi_turn.turns.value_or(1));
  if (!random) {
    turns = multi_turn.turns
                ? fmt::format("of their conversations' turns (at most {})", *multi_turn.turns)
                : "of their conversations' turns";
  }
  const std::string open =
      multi_turn.sessions ? fmt::format(", {} open at once", *multi_turn.sessions) : "";
  if (options.duration_s > 0) {
    return fmt::format("{}, sessions {} (a request a turn){}", bound, turns, open);
  }
  const std::string requests =
      random ? fmt::format("{} requests", options.num_prompts * multi_turn.turns.value_or(1))
             : "a request a turn";
  return fmt::format("{} sessions {} ({}){}", options.num_prompts, turns, requests, open);
}

std::string describe_load(const cli::RunOptions& options) {
  std::string load;
  bool closed = false;
  if (options.dataset.kind == workload::DatasetKind::trace) {
    load = fmt::format("arrivals of the {} trace at {:g}x speed",
                       workload::trace_format_name(options.dataset.trace.format),
                       options.dataset.trace.speed);
  } else if (options.ramp_up_strategy != schedule::RampStrategy::none) {
    load = fmt::format("rate ramping {} from {:g} to {:g} req/s",
                       schedule::ramp_strategy_name(options.ramp_up_strategy),
                       options.ramp_up_start_rps, options.ramp_up_end_rps);
  } else {
    std::vector<std::string> rates;
    for (double rate : options.request_rates) rates.push_back(results::value_label(rate));
    closed = !std::isfinite(options.request_rates.front()) && options.request_rates.size() == 1;
    load = !closed ? fmt::format("request rate {} req/s{}", fmt::join(rates, ","),
                                 options.constant_rate ? " (constant)" : "")
                   : "closed loop";
  }
  std::string bound = options.duration_s > 0
                          ? fmt::format("for {}{}", cli::format_duration(options.duration_s),
                                        options.duration_hard ? " (hard)" : "")
                          : fmt::format("{} requests", options.num_prompts);
  if (options.multi_turn.enabled) bound = describe_sessions(options, bound);
  std::string warmup = options.warmup_duration_s > 0
                           ? fmt::format(" after {} of warm-up",
                                         cli::format_duration(options.warmup_duration_s))
                           : fmt::format(" ({} warm-up)", options.warmup_requests);
  const std::string repeats =
      options.repeat > 1 ? fmt::format(", measured {} times each", options.repeat) : "";
  // An open loop without --concurrency has no cap (its 65536 slots are no one's choice).
  const std::string cap = !options.concurrency_given && !closed
                              ? std::string("no concurrency cap")
                              : fmt::format("concurrency {}", fmt::join(options.concurrency, ","));
  return fmt::format("{}, {}, {}{}{}", cap, load, bound, warmup, repeats);
}

RunResults assemble(const cli::RunOptions& options, const RunPlan& plan,
                    std::vector<PointReport> points, bool interrupted) {
  RunResults run;
  run.points = std::move(points);
  run.interrupted = interrupted;
  if (plan.sweep_variable != SweepVariable::none) {
    std::vector<json> objects;
    for (const PointReport& point : run.points) objects.push_back(point.results);
    json values = json::array();
    for (const LoadPoint& point : plan.points) {
      values.push_back(plan.sweep_variable == SweepVariable::request_rate
                           ? results::rate_to_json(point.rate_per_s)
                           : json(point.concurrency));
    }
    run.results =
        report::sweep_to_json(sweep_variable_name(plan.sweep_variable), values, objects);
    run.results["interrupted"] = interrupted;
  } else if (!run.points.empty()) {
    run.results = run.points.front().results;
  }
  // CI gates, on the very figures reported; the results record what they were held to.
  if (!options.gates.empty() && !run.results.is_null()) {
    run.gates = gate::evaluate(options.gates, run.results, options.gate_on);
    run.results["gates"] = gate::to_json(run.gates);
  }
  return run;
}

// --repeat: each point's figures across its repeats (a sweep's table above shows their means).
void print_repeats(const RunPlan& plan, const RunResults& run, std::ostream& out) {
  if (plan.repeats < 2) return;
  if (plan.sweep_variable != SweepVariable::none) {
    out << "\nThe table's figures are means of each point's repeats; their spread:\n";
  }
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const LoadPoint& point = plan.points[i];
    std::string title;
    if (plan.sweep_variable == SweepVariable::concurrency) {
      title = fmt::format("concurrency {}", point.concurrency);
    }
    if (plan.sweep_variable == SweepVariable::request_rate) {
      title = "rate " + results::value_label(point.rate_per_s) + " req/s";
    }
    out << report::render_repeats(run.points[i].results, title);
  }
}

// The results' answer check block; null when there is none.
json answer_check_of(const json& object) {
  const auto found = object.find(results::key::answer_check);
  return found != object.end() ? *found : json(nullptr);
}

void print_results(const cli::RunOptions& options, const RunPlan& plan, const RunResults& run,
           std::ostream& out) {
  switch (options.output_format) {
    case cli::OutputFormat::json:
      out << results_for_scripts(options, run.results).dump(2) << "\n";
      break;
    case cli::OutputFormat::csv: {
      std::vector<json> objects;
      for (const PointReport& point : run.points) objects.push_back(point.results);
      out << report::to_csv(objects);
      break;
    }
    case cli::OutputFormat::text:
      if (plan.sweep_variable != SweepVariable::none) {
        out << report::render_sweep_table(run.results) << "\n"
            << report::render_sweep_chart(run.results, 78);
        print_repeats(plan, run, out);
        out << report::render_answer_check(answer_check_of(run.results));
        if (run.interrupted) out << "INTERRUPTED: the sweep stopped before its last point.\n";
      } else if (!run.points.empty() && !run.points.front().repeats.empty()) {
        print_repeats(plan, run, out);
        out << report::render_answer_check(answer_check_of(run.results));
        if (run.interrupted) out << "INTERRUPTED: the run stopped before its last repeat.\n";
      } else if (!run.points.empty()) {
        out << report::render_text(run.points.front().summary, run.points.front().context)
            << report::render_per_server(run.points.front().results);
      }
      break;
  }
  out.flush();
}

// The first of interrupted (130), run failed (3), gate failed (4), requests failed (1) that
// applies. Gate lines are printed whatever wins, so none goes unseen.
int exit_code(const cli::RunOptions& options, const RunResults& run, bool files_written,
              std::ostream& err) {
  err << gate::render_violations(run.gates);
  if (run.interrupted) return cli::kExitInterrupted;
  if (!files_written) return cli::kExitRunFailed;
  for (const PointReport& point : run.points) {
    if (!point.stopped_early.empty()) {
      err << "bench: error: " << point.stopped_early << "\n";
      return cli::kExitRunFailed;
    }
  }
  if (run.gates.failed()) return cli::kExitGateFailed;
  std::int64_t failed = 0, sent = 0;
  for (const PointReport& point : run.points) {
    if (point.repeats.empty()) {
      failed += point.summary.failed;
      sent += point.summary.sent;
    }
    for (const PointReport& repeat : point.repeats) {
      failed += repeat.summary.failed;
      sent += repeat.summary.sent;
    }
  }
  // With --max-error-rate the user said how many failures are acceptable: within it they do not
  // fail the run (the gate above caught the case beyond it).
  if (failed == 0 || options.max_error_rate_given) return cli::kExitOk;
  if (!options.quiet) {
    err << fmt::format("bench: {} of {} measured requests failed (exit code {}).\n", failed, sent,
                       cli::kExitRequestsFailed);
  }
  return cli::kExitRequestsFailed;
}

}  // namespace

int run_benchmark(const cli::RunOptions& given, const std::atomic<bool>& stop,
                  std::ostream& out, std::ostream& err) {
  const RunPlan plan = plan_run(given);
  int failed_early = cli::kExitOk;
  std::optional<PreparedRun> prepared = plan_and_prepare(given, plan, failed_early, err);
  if (!prepared) return failed_early;
  cli::RunOptions options = given;
  try {
    settle_trace_requests(options, *prepared->prompts);  // a trace's rows are its requests
  } catch (const std::invalid_argument& error) {
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  }
  if (!options.quiet) {
    err << fmt::format("bench: model '{}', endpoint {}, {}, per-chunk usage {}\n",
                       prepared->request.model, util::url_without_password(prepared->url),
                       describe_load(options),
                       protocol::asks_per_chunk_usage(prepared->request) ? "asked" : "off");
    err << describe_shard(options);
    err << describe_client_threads(options, plan, *prepared);
    if (prepared->spread != nullptr) {
      std::vector<std::string> shown;
      for (const std::string& url : prepared->target.base_urls) {
        shown.push_back(util::url_without_password(url));
      }
      err << fmt::format("bench: {} servers ({} by request index): {}\n", shown.size(),
                         options.server_weights.empty()
                             ? std::string("round robin")
                             : fmt::format("weights {}", fmt::join(options.server_weights, ",")),
                         fmt::join(shown, ", "));
    }
  }
  RunServices services;
  if (!open_services(options, plan, *prepared, services, err)) return cli::kExitRunFailed;
  std::unique_ptr<RecordLog>& log = services.log;
  std::optional<CacheFlush>& flush = services.flush;
  const json workload = workload_definition(options);
  std::vector<PointReport> points;  // one after another against the same server
  for (const LoadPoint& point : plan.points) {
    if (stop.load()) break;
    try {
      points.push_back(measure_repeated(options, plan, *prepared, point, services.tools(),
                                        plan.points.size(), workload, stop, err));
    } catch (const std::invalid_argument& error) {
      err << "bench: error: " << error.what() << "\n";
      return cli::kExitUsage;
    }
    if (!points.back().stopped_early.empty()) break;  // no later point could succeed either
  }
  RunResults run = assemble(options, plan, std::move(points), stop.load());
  if (plan.sweep_variable != SweepVariable::none && !run.results.is_null()) {
    stamp_workload(run.results, options, workload, plan.points, flush ? &*flush : nullptr);
    run.results[results::key::answer_check] = prepared->answer_check;
  }
  print_results(options, plan, run, out);
  const bool written = write_files(options, run, log.get(), err);
  return exit_code(options, run, written, err);
}

}  // namespace bench::app
