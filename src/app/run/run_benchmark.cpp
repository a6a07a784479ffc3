#include "bench/app/run/run_benchmark.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bench/app/plan/shard_results.hpp"
#include "bench/app/plan/workload_fingerprint.hpp"
#include "bench/app/run/peer_files.hpp"
#include "bench/app/run/run_stages.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/frontier.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/inferencex_view.hpp"
#include "bench/report/report.hpp"
#include "bench/report/terminal_chart.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/format.hpp"
#include "bench/results/workload.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/dataset_error.hpp"
#include "bench/workload/generator_version.hpp"

namespace bench::app {

using nlohmann::json;

// The JSON as written for scripts: bench's keys, or a peer's view with --json-compat.
json results_for_scripts(const OutputPlan& output, const json& object) {
  return output.json_compat ? results::compat_view(object, *output.json_compat) : object;
}

json sweep_results(const RunPlan& plan, const std::vector<json>& points) {
  json values = json::array();
  for (const LoadPoint& point : plan.points) values.push_back(sweep_value(plan, point));
  return results::sweep_to_json(sweep_variable_name(plan.sweep_variable), values, points);
}

// What a results object (a run, a sweep point, a sweep) records of its workload, over its
// load `points`, and of --flush-cache (results/workload.hpp).
void stamp_workload(json& results, const RunPlan& plan, const json& definition,
                    const std::vector<LoadPoint>& points, const CacheFlush* flush) {
  results[results::key::workload] = results::workload_to_json(
      {workload_fingerprint(definition, points), workload::kPromptGeneratorVersion, plan.seed});
  results[results::key::prefix_cache_flush] =
      flush != nullptr ? json(flush_method_name(flush->method())) : json(nullptr);
}

// False when the request log cannot be created (said on `err`).
bool open_services(const RunPlan& plan, PreparedRun& prepared, RunServices& services,
                   std::ostream& err) {
  try {
    if (!plan.output.save_requests.empty()) {
      services.log = std::make_unique<RecordLog>(plan.output.save_requests);
    }
  } catch (const std::exception& error) {
    err << "bench: error: " << error.what() << "\n";
    return false;
  }
  if (plan.server.flush_cache) {
    services.flush.emplace(FlushServer{prepared.target.first_base_url(), &plan.headers, plan.engine,
                                       prepared.redactor.get()},
                           prepared.request, err, plan.output.quiet);
  }
  if (plan.server.metrics) {
    std::vector<MetricsServer> servers;
    for (const std::string& url :
         server_metrics_urls(plan.server.metrics_urls, prepared.target.base_urls)) {
      servers.push_back(
          {url, &plan.headers, plan.engine, util::redactor_for_request(plan.headers, url)});
    }
    services.scraper.emplace(std::move(servers), plan.server.metrics_interval_s);
  }
  return true;
}

bool open_live(const RunPlan& plan, RunServices& services, std::ostream& err) {
  if (!plan.live.enabled()) return true;
  auto opened = live::Session::open(plan.live);
  if (auto* error = std::get_if<std::string>(&opened)) {
    err << "bench: error: " << *error << "\n";
    return false;
  }
  services.live = std::move(std::get<std::unique_ptr<live::Session>>(opened));
  const std::string url = services.live->base_url();
  // Said even with --quiet: with port 0 it is the only way to learn the port.
  if (!url.empty()) err << "bench: live metrics on " << url << "/metrics\n";
  return true;
}

// The results files; false when one could not be written (said on `err`).
bool write_files(const OutputPlan& output, const RunResults& run, RecordLog* log,
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
  if (!output.output_file.empty() && !run.results.is_null()) {
    attempt([&] {
      if (output.peer_results.sglang_output_file) {
        append_sglang_lines(output, run);
      } else {
        write_file_atomically(output.output_file,
                              results_for_scripts(output, run.results).dump(2) + "\n");
      }
    });
  }
  if (!write_vllm_files(output, run, err)) written = false;
  if (!output.html_path.empty() && !run.results.is_null()) {
    attempt(
        [&] { write_file_atomically(output.html_path, report::render_html_report(run.results)); });
  }
  if (log != nullptr) attempt([&] { log->commit(); });
  return written;
}

namespace {

RunResults assemble(const RunPlan& plan, std::vector<PointReport> points, bool interrupted) {
  RunResults run;
  run.points = std::move(points);
  run.interrupted = interrupted;
  if (plan.sweep_variable != SweepVariable::none) {
    std::vector<json> objects;
    for (const PointReport& point : run.points) objects.push_back(point.results);
    run.results = sweep_results(plan, objects);
    run.results["interrupted"] = interrupted;
  } else if (!run.points.empty()) {
    run.results = run.points.front().results;
  }
  // CI gates, on the very figures reported; the results record what they were held to.
  if (!plan.output.gates.empty() && !run.results.is_null()) {
    run.gates = gate::evaluate(plan.output.gates, run.results, plan.output.gate_on);
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
    if (plan.sweep_variable == SweepVariable::prefix_share) {
      title = fmt::format("prefix share {:g}", point.prefix_share.value_or(0));
    }
    out << report::render_repeats(run.points[i].results, title);
  }
}

// The results' answer check block; null when there is none.
json answer_check_of(const json& object) {
  const auto found = object.find(results::key::answer_check);
  return found != object.end() ? *found : json(nullptr);
}

void print_results(const RunPlan& plan, const RunResults& run, std::ostream& out) {
  switch (plan.output.format) {
    case cli::OutputFormat::json:
      out << results_for_scripts(plan.output, run.results).dump(2) << "\n";
      break;
    case cli::OutputFormat::csv: {
      std::vector<json> objects;
      for (const PointReport& point : run.points) objects.push_back(point.results);
      out << results::to_csv(objects);
      break;
    }
    case cli::OutputFormat::text:
      // INTERRUPTED first, where it cannot be missed (a single point's report says it itself).
      if (plan.sweep_variable != SweepVariable::none) {
        if (run.interrupted) out << "INTERRUPTED: the sweep stopped before its last point.\n";
        out << report::render_sweep_table(run.results) << "\n"
            << report::render_sweep_chart(run.results, 78) << "\n"
            << report::render_frontier_table(run.results)
            << report::render_inferencex_table(run.results);
        print_repeats(plan, run, out);
        out << report::render_answer_check(answer_check_of(run.results));
      } else if (!run.points.empty() && !run.points.front().repeats.empty()) {
        if (run.interrupted) out << "INTERRUPTED: the run stopped before its last repeat.\n";
        print_repeats(plan, run, out);
        out << report::render_answer_check(answer_check_of(run.results));
      } else if (!run.points.empty()) {
        out << report::render_text(run.points.front().summary, run.points.front().context)
            << report::render_per_server(run.points.front().results);
      }
      out << vllm_summaries(plan.output, run);
      break;
  }
  out.flush();
}

// The first of interrupted (130), run failed (3), gate failed (4), requests failed (1) that
// applies. Gate lines are printed whatever wins, so none goes unseen.
int exit_code(const OutputPlan& output, const RunResults& run, bool files_written,
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
  if (failed == 0 || output.max_error_rate_given) return cli::kExitOk;
  if (!output.quiet) {
    err << fmt::format("bench: {} of {} measured requests failed (exit code {}).\n", failed, sent,
                       cli::kExitRequestsFailed);
  }
  return cli::kExitRequestsFailed;
}

// The start-up lines: the model, the endpoint and the load; the shard; the client's loops; the
// servers.
void describe_run(const RunPlan& plan, const PreparedRun& prepared, std::ostream& err) {
  err << fmt::format("bench: model '{}', endpoint {}, {}, per-chunk usage {}\n",
                     prepared.request.model, util::url_with_secrets_hidden(prepared.urls.front()),
                     plan.load_line,
                     protocol::asks_per_chunk_usage(prepared.request) ? "asked" : "off");
  for (const std::string& warning : plan.load_warnings)
    err << "bench: warning: " << warning << "\n";
  for (const std::string& note : plan.flag_notes) err << "bench: note: " << note << "\n";
  err << describe_shard(plan.shard);
  err << describe_client_threads(plan, prepared);
  if (prepared.spread != nullptr) {
    std::vector<std::string> shown;
    for (const std::string& url : prepared.target.base_urls) {
      shown.push_back(util::url_with_secrets_hidden(url));
    }
    err << fmt::format("bench: {} servers ({} by request index): {}\n", shown.size(),
                       plan.server.weights.empty()
                           ? std::string("round robin")
                           : fmt::format("weights {}", fmt::join(plan.server.weights, ",")),
                       fmt::join(shown, ", "));
  }
}

int run_planned(const RunPlan& plan, StopFlag& stop, std::ostream& out, std::ostream& err) {
  RunServices services;
  if (!open_live(plan, services, err)) return cli::kExitUsage;
  int failed_early = cli::kExitOk;
  std::optional<PreparedRun> prepared = plan_and_prepare(plan, failed_early, err);
  if (!prepared) return failed_early;
  stop.begin_measuring();  // before it, a signal ends the process: nothing was measured
  if (!plan.output.quiet) describe_run(plan, *prepared, err);
  if (!open_services(plan, *prepared, services, err)) return cli::kExitRunFailed;
  if (ResultsCheckpoint::wanted(plan))
    services.checkpoint = std::make_unique<ResultsCheckpoint>(plan);
  std::vector<PointReport> points;  // one after another against the same server
  for (const LoadPoint& point : plan.points) {
    if (stop.load()) break;
    try {
      points.push_back(measure_repeated(plan, *prepared, point, services.tools(),
                                        plan.points.size(), stop, err));
    } catch (const std::invalid_argument& error) {
      err << "bench: error: " << error.what() << "\n";
      return cli::kExitUsage;
    }
    if (!points.back().stopped_early.empty()) break;  // no later point could succeed either
    if (services.checkpoint) services.checkpoint->point_done(points.back().results);
  }
  RunResults run = assemble(plan, std::move(points), stop.load());
  if (plan.sweep_variable != SweepVariable::none && !run.results.is_null()) {
    stamp_workload(run.results, plan, plan.workload, plan.points,
                   services.flush ? &*services.flush : nullptr);
    run.results[results::key::answer_check] = prepared->answer_check;
  }
  print_results(plan, run, out);
  const bool written = write_files(plan.output, run, services.log.get(), err);
  if (services.live) {
    const std::string note = services.live->finish(stop);
    if (!plan.output.quiet) err << note;
  }
  return exit_code(plan.output, run, written, err);
}

}  // namespace

int run_benchmark(const cli::RunOptions& options, StopFlag& stop, std::ostream& out,
                  std::ostream& err) {
  std::optional<RunPlan> plan;
  try {
    plan = plan_run(options);  // the planning step: nothing below reads the options
  } catch (const workload::DatasetError& error) {  // a trace file that cannot be used
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  } catch (const std::invalid_argument& error) {  // a trace whose warm-up leaves no row
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  }
  return run_planned(*plan, stop, out, err);
}

}  // namespace bench::app
