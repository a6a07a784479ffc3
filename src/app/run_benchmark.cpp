#include "bench/app/run_benchmark.hpp"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/live_counters.hpp"
#include "bench/app/progress.hpp"
#include "bench/app/record_log.hpp"
#include "bench/app/run_point.hpp"
#include "bench/app/self_check.hpp"
#include "bench/app/target.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/cli/values.hpp"
#include "bench/gate/gate.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/report/terminal_chart.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/format.hpp"
#include "bench/schedule/arrival.hpp"
#include "bench/sim/sim_options.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/open_file_limit.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/dataset_error.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

std::vector<std::string> request_headers(const cli::RunOptions& options) {
  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: text/event-stream, application/json"};
  if (!options.api_key.empty()) headers.push_back("Authorization: Bearer " + options.api_key);
  for (const std::string& header : options.headers) headers.push_back(header);
  return headers;
}

engine::EngineOptions engine_options(const cli::RunOptions& options, std::int64_t concurrency) {
  engine::EngineOptions engine;
  engine.concurrency = concurrency;
  engine.connect_timeout_ms = static_cast<std::int64_t>(options.connect_timeout_s * 1000);
  engine.request_timeout_ms = static_cast<std::int64_t>(options.request_timeout_s * 1000);
  engine.ttft_timeout_ms = static_cast<std::int64_t>(options.ttft_timeout_s * 1000);
  engine.stall_timeout_ms = static_cast<std::int64_t>(options.stall_timeout_s * 1000);
  engine.grace_ms = static_cast<std::int64_t>(options.grace_s * 1000);
  engine.insecure = options.insecure;
  engine.cacert_path = options.cacert;
  return engine;
}

// One point of the run: the single run, or one value of a sweep.
struct Point {
  std::int64_t concurrency = 0;
  double rate = cli::kUnlimitedRate;
};

std::vector<Point> points_of(const cli::RunOptions& options) {
  std::vector<Point> points;
  for (std::int64_t concurrency : options.concurrency) {
    for (double rate : options.request_rates) points.push_back({concurrency, rate});
  }
  return points;
}

bool is_sweep(const cli::RunOptions& options) {
  return options.concurrency.size() > 1 || options.request_rates.size() > 1;
}

std::string rate_text(double rate) {
  return std::isfinite(rate) ? fmt::format("{:g}", rate) : std::string(results::kUnlimited);
}

json rate_json(double rate) { return results::rate_to_json(rate); }

// The JSON as written for scripts: bench's keys, or a peer's view with --json-compat.
json results_for_scripts(const cli::RunOptions& options, const json& object) {
  const auto compat = bench::results::parse_compat(options.json_compat);
  return compat ? bench::results::compat_view(object, *compat) : object;
}

schedule::ArrivalOptions arrival_options(const cli::RunOptions& options, double rate,
                                         std::uint64_t seed) {
  schedule::ArrivalOptions arrivals;
  arrivals.rate_per_s = rate;
  arrivals.burstiness = options.burstiness;
  arrivals.process =
      options.constant_rate ? schedule::ArrivalProcess::constant
                            : schedule::ArrivalProcess::poisson_gamma;
  if (const auto ramp = schedule::parse_ramp_strategy(options.ramp_up_strategy)) {
    arrivals.ramp = {*ramp, options.ramp_up_start_rps, options.ramp_up_end_rps};
  }
  arrivals.seed = seed;
  return arrivals;
}

// The open-loop schedule of a point: warm-up offsets, then the measured ones right after them.
// Two draws (warm-up, measured) of independent seeds: a Poisson process is memoryless, so the
// join is invisible. Empty when the point is a closed loop.
struct Schedule {
  std::vector<std::int64_t> offsets_ns;
  std::size_t warmup_requests = 0;
};

std::optional<Schedule> open_loop_schedule(const cli::RunOptions& options, double rate) {
  const schedule::ArrivalOptions measured = arrival_options(options, rate, options.seed);
  if (schedule::sends_all_at_once(measured)) return std::nullopt;
  schedule::ArrivalOptions warmup = measured;
  warmup.seed = options.seed ^ 0x9e3779b97f4a7c15ULL;  // a stream of its own
  if (warmup.ramp.strategy != schedule::RampStrategy::none) {
    // Warm-up holds the ramp's first rate (or its last, when it starts from 0).
    warmup.rate_per_s = warmup.ramp.start_rps > 0 ? warmup.ramp.start_rps : warmup.ramp.end_rps;
    warmup.ramp = {};
  }
  Schedule out;
  std::int64_t shift_ns = 0;
  if (options.warmup_duration_s > 0) {
    out.offsets_ns = schedule::arrival_offsets_until_ns(
        warmup, static_cast<std::int64_t>(options.warmup_duration_s * 1e9), SIZE_MAX);
    shift_ns = static_cast<std::int64_t>(options.warmup_duration_s * 1e9);
  } else if (options.warmup_requests > 0) {
    out.offsets_ns =
        schedule::arrival_offsets_ns(warmup, static_cast<std::size_t>(options.warmup_requests));
    // The first measured request one mean gap after the last warm-up one.
    shift_ns = out.offsets_ns.back() + static_cast<std::int64_t>(1e9 / warmup.rate_per_s);
  }
  out.warmup_requests = out.offsets_ns.size();
  const std::vector<std::int64_t> measured_offsets =
      options.duration_s > 0
          ? schedule::arrival_offsets_until_ns(
                measured, static_cast<std::int64_t>(options.duration_s * 1e9), SIZE_MAX)
          : schedule::arrival_offsets_ns(measured, static_cast<std::size_t>(options.num_prompts));
  for (std::int64_t offset : measured_offsets) out.offsets_ns.push_back(shift_ns + offset);
  return out;
}

// What stays the same over the points of a sweep.
struct Setup {
  Target target;
  std::vector<std::string> headers;
  protocol::RequestOptions request;
  std::string url;
  bool per_chunk_usage = false;
  std::vector<workload::Prompt> prompts;
};

json point_label(const cli::RunOptions& options, const Point& point) {
  if (options.request_rates.size() > 1) return {{"request_rate", rate_json(point.rate)}};
  return {{"concurrency", point.concurrency}};
}

std::string progress_label(const cli::RunOptions& options, const Point& point) {
  if (!is_sweep(options)) return "";
  if (options.request_rates.size() > 1) return "rate=" + rate_text(point.rate);
  return fmt::format("c={}", point.concurrency);
}

// Measures one point and returns its results object.
struct MeasuredPoint {
  json results;
  metrics::RunSummary summary;
  report::RunContext context;
};

MeasuredPoint measure(const cli::RunOptions& options, const Setup& setup, const Point& point,
                      RecordLog* log, const std::atomic<bool>& stop, std::ostream& err) {
  const std::optional<Schedule> schedule = open_loop_schedule(options, point.rate);
  PointPlan plan;
  plan.driver.url = setup.url;
  plan.driver.headers = &setup.headers;
  plan.driver.request = setup.request;
  plan.driver.limits = {static_cast<std::size_t>(options.max_line_bytes),
                        static_cast<std::size_t>(options.max_line_bytes),
                        static_cast<std::size_t>(options.max_response_bytes)};
  plan.driver.prompts = &setup.prompts;
  if (schedule) {
    plan.driver.offsets_ns = &schedule->offsets_ns;
    plan.driver.warmup_requests = schedule->warmup_requests;
  } else {
    plan.driver.warmup_requests = static_cast<std::size_t>(options.warmup_requests);
    plan.driver.warmup_until_ns = static_cast<std::int64_t>(options.warmup_duration_s * 1e9);
  }
  plan.driver.measured_duration_ns = static_cast<std::int64_t>(options.duration_s * 1e9);
  plan.driver.cancel_at_duration_end = options.duration_hard;
  plan.engine = engine_options(options, point.concurrency);
  plan.measured_requests = options.duration_s > 0 || schedule
                               ? SIZE_MAX
                               : static_cast<std::size_t>(options.num_prompts);
  plan.client_threads = options.client_threads;
  plan.summary.target_in_flight = schedule ? 0 : point.concurrency;
  plan.summary.slo = options.goodput;
  plan.log = log;
  LiveCounters live;
  plan.driver.live = &live;
  if (log != nullptr && is_sweep(options)) log->set_point(point_label(options, point));

  PointResult result;
  {
    std::optional<Progress> progress;
    if (progress_wanted(options.quiet)) {
      ProgressPlan shown;
      shown.label = progress_label(options, point);
      if (options.duration_s > 0) {
        shown.duration_s = options.duration_s + options.warmup_duration_s;
      } else if (schedule) {
        shown.total_requests = static_cast<std::int64_t>(schedule->offsets_ns.size());
      } else if (options.warmup_duration_s == 0) {
        shown.total_requests = options.warmup_requests + options.num_prompts;
      }
      progress.emplace(err, live, shown);
    }
    result = run_point(plan, stop);
  }

  MeasuredPoint measured;
  measured.summary = std::move(result.summary);
  report::RunContext& context = measured.context;
  context.base_url = setup.target.base_url;
  context.embedded_server = setup.target.embedded != nullptr;
  if (context.embedded_server) context.simulator = sim::settings_json(options.sim);
  context.endpoint = options.endpoint;
  context.model = setup.request.model;
  context.concurrency = point.concurrency;
  context.request_rate = point.rate;
  context.ramp_up_strategy = options.ramp_up_strategy;
  context.ramp_up_start_rps = options.ramp_up_start_rps;
  context.ramp_up_end_rps = options.ramp_up_end_rps;
  context.num_prompts = options.num_prompts;
  context.input_len = options.input_len;
  context.output_len = options.output_len;
  context.started_at = wall_clock_iso8601();
  context.interrupted = result.interrupted;
  context.client = check_client(measured.summary, result.client);
  context.config = cli::options_to_json(options);
  context.config["base_url"] = setup.target.base_url;
  context.config["model"] = setup.request.model;
  measured.results = report::to_json(measured.summary, context);
  measured.results["per_chunk_usage"] = setup.per_chunk_usage;
  if (!options.quiet) {
    for (const std::string& warning : context.client.warnings) {
      err << "bench: warning" << (is_sweep(options) ? " (" + progress_label(options, point) + ")" : "")
          << ": " << warning << "\n";
    }
  }
  return measured;
}

Setup prepare(const cli::RunOptions& options, std::ostream& err) {
  Setup setup;
  // The workload first: a dataset file that cannot be used stops the run before anything is
  // sent, the embedded server included.
  // With --duration the run's length is not a count: --num-prompts distinct prompts are reused
  // in order. Otherwise one prompt per request, warm-up first, the same for every point.
  const std::int64_t prompts =
      options.duration_s > 0 || options.warmup_duration_s > 0
          ? options.num_prompts
          : options.warmup_requests + options.num_prompts;
  workload::DatasetOptions dataset;
  dataset.kind = *workload::parse_dataset_kind(options.dataset);
  dataset.path = options.dataset_path;
  dataset.count = static_cast<std::size_t>(prompts);
  dataset.input_len = options.input_len;
  dataset.output_len = options.output_len;
  dataset.range_ratio = options.range_ratio;
  dataset.sharegpt_output_len = options.sharegpt_output_len;
  dataset.prefix_groups = options.prefix_groups;
  dataset.prefix_len = options.prefix_len;
  dataset.questions_per_group = options.questions_per_group;
  dataset.shuffle = options.shuffle;
  dataset.seed = options.seed;
  workload::Dataset loaded = workload::load_dataset(dataset);
  if (!options.quiet) err << "bench: " << loaded.summary << "\n";
  setup.prompts = std::move(loaded.prompts);

  setup.target = open_target(options.base_url, options.sim);
  if (setup.target.embedded && !options.quiet) {
    err << fmt::format(
        "bench: no --base-url given: benchmarking the embedded simulated server at {} ({}).\n"
        "bench: its figures describe the simulator, not a real model; pass --base-url to "
        "measure a server.\n",
        setup.target.base_url, sim::describe(options.sim));
  }
  setup.headers = request_headers(options);
  const std::int64_t max_concurrency =
      *std::max_element(options.concurrency.begin(), options.concurrency.end());
  raise_open_file_limit(max_concurrency + 64);
  const engine::EngineOptions engine = engine_options(options, 1);

  setup.request.endpoint =
      options.endpoint == "completions" ? protocol::Endpoint::completions : protocol::Endpoint::chat;
  setup.request.ignore_eos = options.ignore_eos;
  setup.request.temperature = options.temperature;
  if (!options.extra_body.empty()) setup.request.extra_body = json::parse(options.extra_body);
  setup.url = setup.target.base_url + std::string(protocol::endpoint_path(setup.request.endpoint));

  // Model and per-chunk usage, before any clock starts.
  setup.request.model = options.model.empty()
                            ? discover_model(setup.target.base_url, setup.headers, engine)
                            : options.model;
  setup.per_chunk_usage = options.per_chunk_usage == "on";
  if (options.per_chunk_usage == "auto") {
    setup.per_chunk_usage = probe_per_chunk_usage(setup.url, setup.headers, setup.request, engine);
  }
  setup.request.continuous_usage_stats = setup.per_chunk_usage;

  return setup;
}

std::string describe_load(const cli::RunOptions& options) {
  std::string load;
  if (options.ramp_up_strategy != "none") {
    load = fmt::format("rate ramping {} from {:g} to {:g} req/s", options.ramp_up_strategy,
                       options.ramp_up_start_rps, options.ramp_up_end_rps);
  } else {
    std::vector<std::string> rates;
    for (double rate : options.request_rates) rates.push_back(rate_text(rate));
    load = std::isfinite(options.request_rates.front()) || options.request_rates.size() > 1
               ? fmt::format("request rate {} req/s{}", fmt::join(rates, ","),
                             options.constant_rate ? " (constant)" : "")
               : "closed loop";
  }
  std::string bound = options.duration_s > 0
                          ? fmt::format("for {}{}", cli::format_duration(options.duration_s),
                                        options.duration_hard ? " (hard)" : "")
                          : fmt::format("{} requests", options.num_prompts);
  std::string warmup = options.warmup_duration_s > 0
                           ? fmt::format(" after {} of warm-up",
                                         cli::format_duration(options.warmup_duration_s))
                           : fmt::format(" ({} warm-up)", options.warmup_requests);
  return fmt::format("concurrency {}, {}, {}{}", fmt::join(options.concurrency, ","), load, bound,
                     warmup);
}

}  // namespace

int run_benchmark(const cli::RunOptions& options, const std::atomic<bool>& stop,
                  std::ostream& out, std::ostream& err) {
  std::optional<Setup> setup;
  try {
    setup.emplace(prepare(options, err));
  } catch (const RunError& error) {
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  } catch (const workload::DatasetError& error) {  // a dataset file that cannot be used
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  } catch (const std::invalid_argument& error) {  // a value the CLI let through
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitUsage;
  }
  if (!options.quiet) {
    err << fmt::format("bench: model '{}', endpoint {}, {}, per-chunk usage {}\n",
                       setup->request.model, setup->url, describe_load(options),
                       setup->per_chunk_usage ? "on" : "off");
  }

  int exit_code = cli::kExitOk;
  std::unique_ptr<RecordLog> log;
  if (!options.save_requests.empty()) {
    try {
      log = std::make_unique<RecordLog>(options.save_requests);
    } catch (const std::exception& error) {
      err << "bench: error: " << error.what() << "\n";
      return cli::kExitRunFailed;
    }
  }

  // The points, one after another against the same server.
  std::vector<MeasuredPoint> measured;
  for (const Point& point : points_of(options)) {
    if (stop.load()) break;
    try {
      measured.push_back(measure(options, *setup, point, log.get(), stop, err));
    } catch (const std::invalid_argument& error) {
      err << "bench: error: " << error.what() << "\n";
      return cli::kExitUsage;
    }
  }
  const bool interrupted = stop.load();

  std::vector<json> points;
  for (const MeasuredPoint& point : measured) points.push_back(point.results);
  json results;
  if (is_sweep(options)) {
    json values = json::array();
    for (const Point& point : points_of(options)) {
      values.push_back(options.request_rates.size() > 1 ? rate_json(point.rate)
                                                        : json(point.concurrency));
    }
    results = report::sweep_to_json(options.request_rates.size() > 1 ? "request_rate"
                                                                     : "concurrency",
                                     values, points);
    results["interrupted"] = interrupted;
  } else if (!points.empty()) {
    results = points.front();
  }

  // CI gates, on the very figures reported; the results record what they were held to.
  gate::GateOutcome gates;
  if (!options.gates.empty() && !results.is_null()) {
    gates = gate::evaluate(options.gates, results);
    results["gates"] = gate::to_json(gates);
  }

  switch (options.output_format) {
    case cli::OutputFormat::json:
      out << results_for_scripts(options, results).dump(2) << "\n";
      break;
    case cli::OutputFormat::csv:
      out << report::to_csv(points);
      break;
    case cli::OutputFormat::text:
      if (is_sweep(options)) {
        out << report::render_sweep_table(results) << "\n"
            << report::render_sweep_chart(results, 78);
        if (interrupted) out << "INTERRUPTED: the sweep stopped before its last point.\n";
      } else if (!measured.empty()) {
        out << report::render_text(measured.front().summary, measured.front().context);
      }
      break;
  }
  out.flush();

  auto write = [&](const std::string& path, const std::string& content) {
    try {
      write_file_atomically(path, content);
    } catch (const std::exception& error) {
      err << "bench: error: " << error.what() << "\n";
      exit_code = cli::kExitRunFailed;
    }
  };
  if (!options.output_file.empty() && !results.is_null()) {
    write(options.output_file, results_for_scripts(options, results).dump(2) + "\n");
  }
  if (!options.html_path.empty() && !results.is_null()) {
    write(options.html_path, report::render_html_report(results));
  }
  if (log) {
    try {
      log->commit();
    } catch (const std::exception& error) {
      err << "bench: error: " << error.what() << "\n";
      exit_code = cli::kExitRunFailed;
    }
  }
  // Exit code: the first of interrupted (130), run failed (3), gate failed (4), requests
  // failed (1) that applies. Gate lines are printed whatever wins, so none goes unseen.
  err << gate::render_violations(gates);
  if (interrupted) return cli::kExitInterrupted;
  if (exit_code != cli::kExitOk) return exit_code;
  if (gates.failed()) return cli::kExitGateFailed;

  std::int64_t failed = 0, sent = 0;
  for (const MeasuredPoint& point : measured) {
    failed += point.summary.failed;
    sent += point.summary.sent;
  }
  // With --max-error-rate the user said how many failures are acceptable: within it they do not
  // fail the run (the gate above caught the case beyond it).
  if (failed > 0 && !options.max_error_rate_given) {
    if (!options.quiet) {
      err << fmt::format("bench: {} of {} measured requests failed (exit code {}).\n", failed,
                         sent, cli::kExitRequestsFailed);
    }
    return cli::kExitRequestsFailed;
  }
  return cli::kExitOk;
}

}  // namespace bench::app
