#include "bench/app/run_benchmark.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "bench/app/cache_flush.hpp"
#include "bench/app/load_search.hpp"
#include "bench/app/search_report.hpp"
#include "bench/app/live_counters.hpp"
#include "bench/app/progress.hpp"
#include "bench/app/record_log.hpp"
#include "bench/app/run_plan.hpp"
#include "bench/app/run_point.hpp"
#include "bench/app/server_identity.hpp"
#include "bench/app/server_metrics_scrape.hpp"
#include "bench/app/self_check.hpp"
#include "bench/app/shard_results.hpp"
#include "bench/app/server_tokenizer.hpp"
#include "bench/app/target.hpp"
#include "bench/app/token_setup.hpp"
#include "bench/app/tokenizer_files.hpp"
#include "bench/app/workload_fingerprint.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/cli/values.hpp"
#include "bench/gate/gate.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/report/terminal_chart.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/format.hpp"
#include "bench/results/lengths.hpp"
#include "bench/results/per_server.hpp"
#include "bench/results/repeats.hpp"
#include "bench/results/workload.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/open_file_limit.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt_source.hpp"
#include "bench/workload/dataset_error.hpp"
#include "bench/workload/generator_version.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// The JSON as written for scripts: bench's keys, or a peer's view with --json-compat.
json results_for_scripts(const cli::RunOptions& options, const json& object) {
  const auto compat = results::parse_compat(options.json_compat);
  return compat ? results::compat_view(object, *compat) : object;
}

// One point's figures, as reported: its results object, and what the text report is made of.
struct PointReport {
  json results;
  metrics::RunSummary summary;
  report::RunContext context;
  std::string stopped_early;  // PointResult::stopped_early
  // --repeat N > 1: each measurement of the point; `results` then combines them
  // (results/repeats.hpp) and `summary` and `context` are the first repeat's.
  std::vector<PointReport> repeats;
};

// What the progress line counts towards.
ProgressPlan progress_plan(const cli::RunOptions& options, const RunPlan& plan,
                           const LoadPoint& point, const schedule::OpenLoopSchedule* schedule) {
  ProgressPlan shown;
  shown.label = point_label_text(plan, point);
  if (options.duration_s > 0) {
    shown.duration_s = options.duration_s + options.warmup_duration_s;
  } else if (schedule != nullptr) {
    shown.total_requests = static_cast<std::int64_t>(schedule->size());
  } else if (options.warmup_duration_s == 0 && !options.multi_turn.enabled) {
    // (--multi-turn: --num-prompts counts sessions, whose turns are not known ahead)
    shown.total_requests = options.warmup_requests + options.num_prompts;
  }
  return shown;
}

// Runs the point, with the progress line while it runs.
PointResult run_with_progress(const cli::RunOptions& options, const RunPlan& plan,
                              const LoadPoint& point, PointPlan& planned,
                              const schedule::OpenLoopSchedule* schedule, LiveCounters& live,
                              const std::atomic<bool>& stop, std::ostream& err) {
  planned.driver.live = &live;
  std::optional<Progress> progress;
  if (progress_wanted(options.quiet)) {
    ProgressPlan shown = progress_plan(options, plan, point, schedule);
    // After a warm-up drained on its own (run_warmup_alone), only the measured requests remain.
    if (shown.total_requests > 0) {
      shown.total_requests -= static_cast<std::int64_t>(planned.first_request);
    }
    progress.emplace(err, live, shown);
  }
  return run_point(planned, stop);
}

// What was asked (as sent) beside what the server counted (results/lengths.hpp). Server counts
// are those of usage only: a chunk estimate is no count to hold a length against.
results::LengthCheck check_lengths(const cli::RunOptions& options, const PreparedRun& prepared,
                                   const metrics::RunSummary& summary) {
  results::LengthFigures figures;
  figures.tokens = lengths_in_tokens(options, prepared);
  figures.requested_input = summary.mean_requested_input_len;
  if (prepared.template_overhead) {
    figures.template_tokens = static_cast<double>(prepared.template_overhead->tokens);
  }
  figures.template_included = options.input_len_includes_template;
  const bool all_usage = summary.completed > 0;
  if (all_usage && summary.input_tokens_from_usage == summary.completed) {
    figures.server_prompt_tokens = summary.mean_prompt_tokens;
  }
  figures.requested_output = summary.mean_requested_output_len;
  if (all_usage && summary.output_tokens_from_usage == summary.completed) {
    figures.server_completion_tokens = summary.mean_completion_tokens;
  } else if (all_usage && summary.output_tokens_from_tokenizer == summary.completed) {
    figures.tokenizer_completion_tokens = summary.mean_completion_tokens;
  }
  figures.ignore_eos = options.ignore_eos;
  return results::check_lengths(figures);
}

// Several servers: the point's figures per server (results/per_server.hpp), over its window.
void put_per_server(json& results, const PreparedRun& prepared, double duration_s,
                    PointResult& result) {
  if (result.per_server.empty() || prepared.spread == nullptr) return;
  std::vector<results::ServerFigures> servers;
  for (std::size_t k = 0; k < result.per_server.size(); ++k) {
    results::ServerFigures server;
    server.url = util::url_without_credentials(prepared.target.base_urls[k]);
    server.weight = prepared.spread->weight(k);
    server.summary = std::move(result.per_server[k]);
    if (k < result.per_server_state.size()) server.state = std::move(result.per_server_state[k]);
    servers.push_back(std::move(server));
  }
  results[results::key::per_server] = results::per_server_to_json(servers, duration_s);
}

// The point's results object, and the notes on it for stderr: per-chunk usage as received
// (a server may ignore continuous_usage_stats), the client's own warnings.
PointReport report_point(const cli::RunOptions& options, const RunPlan& plan,
                         const PreparedRun& prepared, const LoadPoint& point,
                         PointResult result,
                         std::optional<report::ServerMetricsWindow> server_window,
                         std::ostream& err) {
  PointReport out;
  out.summary = std::move(result.summary);
  out.stopped_early = result.stopped_early;
  out.context = point_context(options, plan, prepared, point);
  out.context.server_metrics = std::move(server_window);
  if (out.context.server_metrics) {
    out.context.server_metrics->records_epoch_steady_ns = result.clock.epoch_steady_ns;
  }
  out.context.started_at = wall_clock_iso8601();
  out.context.interrupted = result.interrupted;
  out.context.client = check_client(out.summary, result.client);
  out.results = report::to_json(out.summary, out.context);
  stamp_shard(out.results, options, result);
  put_per_server(out.results, prepared, out.summary.duration_s, result);
  const bool asked = protocol::asks_per_chunk_usage(prepared.request);
  out.results["per_chunk_usage"] = out.summary.requests_with_per_chunk_usage > 0;
  out.results["per_chunk_usage_asked"] = asked;
  if (!result.stopped_early.empty()) out.results["stopped_early"] = result.stopped_early;
  const results::LengthCheck lengths = check_lengths(options, prepared, out.summary);
  out.results.update(lengths.keys);
  if (options.quiet) return out;
  if (asked && out.summary.requests_with_per_chunk_usage < out.summary.completed) {
    err << fmt::format("bench: per-chunk usage: asked, received on {} of {} completed requests\n",
                       out.summary.requests_with_per_chunk_usage, out.summary.completed);
  }
  const std::string label = point_label_text(plan, point);
  for (const std::string& warning : lengths.warnings) {
    err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << warning
        << "\n";
  }
  for (const std::string& warning : out.context.client.warnings) {
    err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << warning
        << "\n";
  }
  if (const auto cache = report::prompt_cache_warning(out.summary, out.context)) {
    err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << *cache
        << "\n";
  }
  return out;
}

// --tokenizer server: its requests so far; nullopt with a tokenizer file or none.
std::optional<std::uint64_t> server_tokenize_requests(const PreparedRun& prepared) {
  const auto* server = dynamic_cast<const ServerTokenizer*>(prepared.tokenizer.get());
  if (server == nullptr) return std::nullopt;
  return server->requests_sent();
}

// --server-metrics with a warm-up: a closed loop's (--warmup-requests or --warmup-duration), or
// an open loop's warm-up arrivals (by count or by time): the warm-up runs as a phase of its own
// and drains before the measured requests start, so the server's counters can be read between
// the two with nothing in flight. (Multi-turn runs refuse a warm-up.)
bool drains_warmup(const cli::RunOptions& options, const schedule::OpenLoopSchedule* schedule) {
  if (schedule != nullptr) {
    return schedule->warmup_requests() > 0 && schedule->measured_start_ns().has_value();
  }
  return options.warmup_requests > 0 || options.warmup_duration_s > 0;
}

// Sends the point's warm-up requests [0, warmup) and waits for them all to end; the measured
// phase then starts from request `warmup`, on connections opened before it as usual. A closed
// loop warmed up by time sends until its warm-up's end, then drains, and the measured phase
// starts after the last request it sent. An open loop's measured phase keeps its schedule,
// moved earlier so that its first request is due at once (its epoch leads by that request's
// offset).
void run_warmup_alone(PointPlan& planned, const schedule::OpenLoopSchedule* schedule,
                      const std::atomic<bool>& stop) {
  const bool closed_by_time = schedule == nullptr && planned.driver.warmup_until_ns > 0;
  const std::size_t warmup =
      schedule != nullptr ? schedule->warmup_requests() : planned.driver.warmup_requests;
  PointPlan phase = planned;
  if (closed_by_time) {
    phase.driver.send_until_ns = planned.driver.warmup_until_ns;
  } else {
    phase.driver.end_request = warmup;
  }
  phase.measured_requests = std::numeric_limits<std::size_t>::max();
  const PointResult warmed = run_point(phase, stop);
  planned.first_request = closed_by_time ? warmed.next_request : warmup;
  // Every request of the measured phase is measured: its epoch is new, so "sent before the
  // warm-up's end" would mark its first requests as warm-up again.
  if (closed_by_time) planned.driver.warmup_until_ns = 0;
  if (schedule != nullptr) planned.epoch_lead_ns = schedule->measured_start_ns().value_or(0);
  planned.start_at_unix_ns.reset();  // the warm-up waited for --start-at
}

PointReport measure_point(const cli::RunOptions& options, const RunPlan& plan,
                          const PreparedRun& prepared, const LoadPoint& point, RecordLog* log,
                          ServerMetricsScraper* scraper, const std::atomic<bool>& stop,
                          std::ostream& err) {
  const std::optional<std::uint64_t> tokenize_before = server_tokenize_requests(prepared);
  schedule::OpenLoopPlan arrivals = open_loop_plan(options, point.rate_per_s);
  arrivals.given_offsets_ns = prepared.prompts->arrival_offsets_ns();  // a trace's own
  const std::optional<schedule::OpenLoopSchedule> schedule =
      schedule::build_open_loop_schedule(arrivals);
  const schedule::OpenLoopSchedule* offsets = schedule ? &*schedule : nullptr;
  PointPlan planned = point_plan(options, plan, prepared, point, offsets);
  planned.log = log;
  planned.driver.redactor = prepared.redactor.get();
  if (log != nullptr && (!plan.sweep_variable.empty() || plan.repeats > 1)) {
    log->set_point(point_label(plan, point));
  }
  // The server's window opens at a quiet point: after the warm-up has drained, when it can.
  const bool drain_warmup = scraper != nullptr && drains_warmup(options, offsets);
  if (drain_warmup) run_warmup_alone(planned, offsets, stop);
  LiveCounters live;  // read by the progress line and by the server's gauge polls
  if (scraper != nullptr) scraper->before_point(&live);
  PointResult result = run_with_progress(options, plan, point, planned, offsets, live, stop, err);
  std::optional<report::ServerMetricsWindow> server_window;
  if (scraper != nullptr) {
    server_window =
        scraper->after_point(drain_warmup ? 0 : options.warmup_requests, err, options.quiet);
    server_window->warmup_drained = drain_warmup;
  }
  PointReport report = report_point(options, plan, prepared, point, std::move(result),
                                    std::move(server_window), err);
  // Made while the point ran, these requests loaded the server under test (docs/usage.md).
  const std::optional<std::uint64_t> tokenize_after = server_tokenize_requests(prepared);
  report.results[kServerKey] = identity_json(prepared.server);
  report.results[results::key::server_tokenize_requests] =
      tokenize_before && tokenize_after ? nlohmann::json(*tokenize_after - *tokenize_before)
                                        : nlohmann::json();
  return report;
}

// The prompts, once the lengths' unit is known (words, or tokens of `prepared.tokenizer`).
void open_prompts(const cli::RunOptions& options, const RunPlan& plan, PreparedRun& prepared,
                  std::ostream& err) {
  workload::TokenLengths lengths;
  lengths.tokenizer = prepared.tokenizer.get();
  if (options.input_len_includes_template && prepared.template_overhead) {
    lengths.template_tokens = prepared.template_overhead->tokens;
  }
  prepared.prompts = workload::open_prompt_source(plan.dataset, lengths);
  if (!options.quiet) {
    err << "bench: " << prepared.prompts->summary()
        << (options.reuse_prompts ? "; --reuse-prompts: every point resends the first one's"
                                  : "")
        << "\n";
  }
}

// --tokenizer: the tokenizer, and on chat the template's overhead, said on stderr.
void open_tokenizer(const cli::RunOptions& options, const RunPlan& plan,
                    const engine::EngineOptions& engine, PreparedRun& prepared,
                    std::ostream& err) {
  const TokenServer server{prepared.target.base_url, prepared.url, &plan.headers, engine,
                           prepared.request, prepared.redactor.get()};
  if (options.tokenizer == "server") prepared.tokenizer = open_server_tokenizer(server);
  if (!options.quiet) err << "bench: tokenizer: " << prepared.tokenizer->description() << "\n";
  if (prepared.request.endpoint != protocol::Endpoint::chat) return;
  prepared.template_overhead = measure_template_overhead(server, *prepared.tokenizer);
  if (!prepared.template_overhead && options.input_len_includes_template) {
    throw RunError("--input-len-includes-template: the chat template's tokens could not be "
                   "measured (no chat tokenizer on the server, no usage in a probe's answer)");
  }
  if (options.quiet) return;
  if (prepared.template_overhead) {
    err << fmt::format("bench: chat template: {} tokens a prompt (measured by {}); {}\n",
                       prepared.template_overhead->tokens, prepared.template_overhead->method,
                       options.input_len_includes_template
                           ? "--input-len includes them"
                           : "--input-len counts content only");
  } else {
    err << "bench: chat template: overhead unknown (no chat tokenizer on the server, no usage "
           "in a probe's answer)\n";
  }
}

// What the server says of itself, and its max_model_len against the run's longest request:
// beyond it, a run in tokens is refused (exit 2) before a request is sent; in words, a warning
// (random) or a note that the check was not made (a dataset read in words).
void check_server_context(const cli::RunOptions& options, const RunPlan& plan,
                          const engine::EngineOptions& engine, PreparedRun& prepared,
                          std::ostream& err) {
  // Several servers: each is asked, and the run held to the smallest context of them all.
  std::vector<ServerIdentity> servers;
  std::vector<std::string> shown_urls;
  for (const std::string& base_url : prepared.target.base_urls) {
    servers.push_back(
        probe_server_identity({base_url, &plan.headers, engine}, prepared.request.model));
    shown_urls.push_back(util::url_without_password(base_url));
  }
  std::vector<std::string> differences;
  prepared.server = common_identity(servers, shown_urls, differences);
  for (const std::string& difference : differences) {
    if (!options.quiet) err << "bench: warning: the servers differ: " << difference << "\n";
  }
  const std::optional<ContextVerdict> verdict =
      check_context_fit(context_fit_of(options, plan, prepared));
  if (!verdict) return;
  if (verdict->refuse) throw std::invalid_argument(verdict->line);
  if (!options.quiet) {
    err << (verdict->unchecked ? "bench: " : "bench: warning: ") << verdict->line << "\n";
  }
}

// Everything settled before any clock starts: the prompts (a dataset file that cannot be used
// stops the run before anything is sent, the embedded server included), the server, its
// model, and whether it answers per-chunk usage. With --tokenizer the prompts wait for the
// tokenizer (the server's, or a file's) and the template's measure.
PreparedRun prepare(const cli::RunOptions& options, const RunPlan& plan, std::ostream& err) {
  PreparedRun prepared;
  const bool tokens = !options.tokenizer.empty();
  if (tokens && options.tokenizer != "server") {
    prepared.tokenizer = open_tokenizer_file(options.tokenizer);
  }
  if (!tokens) open_prompts(options, plan, prepared, err);

  prepared.target = open_target(options.base_urls, options.sim);
  if (prepared.target.embedded && !options.quiet) {
    err << fmt::format(
        "bench: no --base-url given: benchmarking the embedded simulated server at {} ({}).\n"
        "bench: its figures describe the simulator, not a real model; pass --base-url to "
        "measure a server.\n",
        prepared.target.base_url, sim::describe(options.sim));
  }
  prepared.redactor = std::make_shared<const util::Redactor>(
      util::redactor_for_servers(plan.headers, prepared.target.base_urls));
  raise_open_file_limit(*std::max_element(options.concurrency.begin(), options.concurrency.end()) +
                        64);
  engine::EngineOptions engine = plan.engine;
  engine.concurrency = 1;
  prepared.request = plan.request;
  prepared.url =
      prepared.target.base_url + std::string(protocol::endpoint_path(prepared.request.endpoint));
  for (const std::string& base_url : prepared.target.base_urls) {
    prepared.urls.push_back(base_url +
                            std::string(protocol::endpoint_path(prepared.request.endpoint)));
  }
  if (prepared.urls.size() > 1) {
    prepared.spread = std::make_shared<const ServerSpread>(
        options.server_weights.empty() ? std::vector<std::int64_t>(prepared.urls.size(), 1)
                                       : options.server_weights);
  }
  if (prepared.request.model.empty()) {
    prepared.request.model =
        discover_model(prepared.target.base_url, plan.headers, engine, *prepared.redactor);
  }
  if (tokens) {
    open_tokenizer(options, plan, engine, prepared, err);
    open_prompts(options, plan, prepared, err);
  }
  check_server_context(options, plan, engine, prepared, err);
  prepared.request.continuous_usage_stats =
      options.per_chunk_usage == cli::PerChunkUsage::on ||
      (options.per_chunk_usage == cli::PerChunkUsage::auto_detect &&
       probe_per_chunk_usage(prepared.url, plan.headers, prepared.request, engine,
                             *prepared.redactor));
  return prepared;
}

std::string describe_load(const cli::RunOptions& options) {
  std::string load;
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
  const std::string repeats =
      options.repeat > 1 ? fmt::format(", measured {} times each", options.repeat) : "";
  return fmt::format("concurrency {}, {}, {}{}{}", fmt::join(options.concurrency, ","), load,
                     bound, warmup, repeats);
}

// Plan and prepare, mapping what stops a run before it starts to its exit code.
std::optional<PreparedRun> plan_and_prepare(const cli::RunOptions& options, const RunPlan& plan,
                                            int& failure_code, std::ostream& err) {
  try {
    return prepare(options, plan, err);
  } catch (const RunError& error) {
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitRunFailed;
  } catch (const tokenizer::TokenizerError& error) {  // a tokenizer file that cannot be used
    err << "bench: error: --tokenizer " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  } catch (const workload::DatasetError& error) {  // a dataset file that cannot be used
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  } catch (const std::invalid_argument& error) {  // a value the CLI let through
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  }
  return std::nullopt;
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

// What each measurement of a point uses beside the plan; each may be null.
struct PointTools {
  RecordLog* log;
  ServerMetricsScraper* scraper;
  CacheFlush* flush;
};

// What every measurement of a run uses beside the plan, each only when asked for: the request
// log (--save-requests), the cache flush (--flush-cache), the metrics scraper (--server-metrics).
struct RunServices {
  std::unique_ptr<RecordLog> log;
  std::optional<CacheFlush> flush;
  std::optional<ServerMetricsScraper> scraper;
  PointTools tools() {
    return {log.get(), scraper ? &*scraper : nullptr, flush ? &*flush : nullptr};
  }
};

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

// The point measured plan.repeats times, one measure_point() after another (the path of every
// measurement), each repeat with its own prompts: repeat r takes the point's stream plus r x
// `stream_stride` (the run's points, or a search's most probes); with one, the point's report.
PointReport measure_repeated(const cli::RunOptions& options, const RunPlan& plan,
                             const PreparedRun& prepared, const LoadPoint& point,
                             const PointTools& tools, std::size_t stream_stride,
                             const json& workload, const std::atomic<bool>& stop,
                             std::ostream& err) {
  std::vector<PointReport> repeats;
  for (std::size_t r = 0; r < plan.repeats; ++r) {
    if (r > 0 && stop.load()) break;
    if (tools.flush != nullptr) tools.flush->before_point(err);
    const LoadPoint repeat = repeat_of(point, r, stream_stride);
    repeats.push_back(
        measure_point(options, plan, prepared, repeat, tools.log, tools.scraper, stop, err));
    stamp_workload(repeats.back().results, options, workload, {point}, tools.flush);
    if (!repeats.back().stopped_early.empty()) break;  // no later repeat could succeed either
  }
  if (plan.repeats == 1) return std::move(repeats.front());
  PointReport out;
  std::vector<json> objects;
  for (const PointReport& repeat : repeats) objects.push_back(repeat.results);
  out.results = results::combine_repeats(objects);
  out.summary = repeats.front().summary;
  out.context = repeats.front().context;
  out.stopped_early = repeats.back().stopped_early;
  out.repeats = std::move(repeats);
  return out;
}

// The run's results: one point's object, or the sweep's, gated.
struct RunResults {
  std::vector<PointReport> points;
  json results;  // null when no point was measured
  gate::GateOutcome gates;
  bool interrupted = false;
};

RunResults assemble(const cli::RunOptions& options, const RunPlan& plan,
                    std::vector<PointReport> points, bool interrupted) {
  RunResults run;
  run.points = std::move(points);
  run.interrupted = interrupted;
  if (!plan.sweep_variable.empty()) {
    std::vector<json> objects;
    for (const PointReport& point : run.points) objects.push_back(point.results);
    json values = json::array();
    for (const LoadPoint& point : plan.points) {
      values.push_back(plan.sweep_variable == "request_rate" ? results::rate_to_json(point.rate_per_s)
                                                             : json(point.concurrency));
    }
    run.results = report::sweep_to_json(plan.sweep_variable, values, objects);
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
  if (!plan.sweep_variable.empty()) {
    out << "\nThe table's figures are means of each point's repeats; their spread:\n";
  }
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const LoadPoint& point = plan.points[i];
    std::string title;
    if (plan.sweep_variable == "concurrency") title = fmt::format("concurrency {}", point.concurrency);
    if (plan.sweep_variable == "request_rate") {
      title = "rate " + results::value_label(point.rate_per_s) + " req/s";
    }
    out << report::render_repeats(run.points[i].results, title);
  }
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
      if (!plan.sweep_variable.empty()) {
        out << report::render_sweep_table(run.results) << "\n"
            << report::render_sweep_chart(run.results, 78);
        print_repeats(plan, run, out);
        if (run.interrupted) out << "INTERRUPTED: the sweep stopped before its last point.\n";
      } else if (!run.points.empty() && !run.points.front().repeats.empty()) {
        print_repeats(plan, run, out);
        if (run.interrupted) out << "INTERRUPTED: the run stopped before its last repeat.\n";
      } else if (!run.points.empty()) {
        out << report::render_text(run.points.front().summary, run.points.front().context)
            << report::render_per_server(run.points.front().results);
      }
      break;
  }
  out.flush();
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
  if (!plan.sweep_variable.empty() && !run.results.is_null()) {
    stamp_workload(run.results, options, workload, plan.points, flush ? &*flush : nullptr);
  }
  print_results(options, plan, run, out);
  const bool written = write_files(options, run, log.get(), err);
  return exit_code(options, run, written, err);
}

namespace {

// Probes a search may take, and so the prompt streams between one probe's repeats.
constexpr std::size_t kMaxProbes = 256;

// The options of the probe at `load`: the searched variable set, and unless --warmup-* was
// given, one wave of warm-up (the load's concurrency in requests), so a closed loop's opening
// burst, all requests arriving at once, is not what the SLOs judge.
cli::RunOptions probe_options(const cli::RunOptions& options, const cli::SearchOptions& search,
                              double load) {
  cli::RunOptions probe = options;
  if (search.over == cli::SearchOver::rate) {
    probe.request_rates = {load};
    if (!options.concurrency_given) probe.concurrency = {cli::kOpenLoopDefaultCap};
  } else {
    probe.concurrency = {static_cast<std::int64_t>(load)};
  }
  if (!search.warmup_given && search.over == cli::SearchOver::concurrency &&
      search.slo_window == cli::SloWindow::steady) {
    probe.warmup_requests = probe.concurrency.front();
  }
  return probe;
}

SearchSetup search_setup(const cli::SearchOptions& search) {
  SearchSetup setup;
  const bool by_rate = search.over == cli::SearchOver::rate;
  setup.variable = by_rate ? "request_rate" : "concurrency";
  setup.slos = probe_slos(search);
  setup.slo_window = search.slo_window;
  setup.plan = {search.start, search.cap, !by_rate, search.resolution_fraction,
                search.resolution_step};
  setup.max_time_s = search.max_time_s;
  const bool whole = search.slo_window == cli::SloWindow::whole;
  setup.warmup = search.warmup_given ? "as given (--warmup-*)"
                 : by_rate || whole ? "none"
                                    : "one wave: the probe's concurrency in requests";
  return setup;
}

void print_search(const cli::RunOptions& options, const json& results,
                  const std::vector<json>& probes, const std::string& message, std::ostream& out) {
  switch (options.output_format) {
    case cli::OutputFormat::json:
      out << results_for_scripts(options, results).dump(2) << "\n";
      break;
    case cli::OutputFormat::csv:
      out << report::to_csv(probes);
      break;
    case cli::OutputFormat::text:
      out << report::render_sweep_table(results) << "\n" << message << "\n";
      break;
  }
  out.flush();
}

// Ends the search before its next probe when asked to: Ctrl-C, --max-time spent, or the
// probe cap reached (each said as how the search ended).
void check_budget(LoadSearch& searcher, const cli::SearchOptions& search,
                  std::chrono::steady_clock::time_point started, std::size_t probes,
                  const std::atomic<bool>& stop) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  if (stop.load()) searcher.stop(SearchEnd::interrupted);
  if (search.max_time_s > 0 && elapsed.count() >= search.max_time_s) {
    searcher.stop(SearchEnd::time_budget);
  }
  if (probes == kMaxProbes) searcher.stop(SearchEnd::time_budget);
}

// The probe at `load`, measured through the path of every run; its results, or the exit code
// that ends the search (said on `err`).
std::variant<json, int> measure_probe(const cli::RunOptions& options,
                                      const cli::SearchOptions& search, const SearchSetup& setup,
                                      const PreparedRun& prepared, RunServices& services,
                                      double load, std::size_t index,
                                      const std::atomic<bool>& stop, std::ostream& err) {
  const cli::RunOptions probe = probe_options(options, search, load);
  RunPlan plan = plan_run(probe);
  plan.sweep_variable = setup.variable;  // labels say the probe's load
  LoadPoint point = plan.points.front();
  point.prompt_stream = index;
  try {
    PointReport report = measure_repeated(probe, plan, prepared, point, services.tools(),
                                          kMaxProbes, workload_definition(probe), stop, err);
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
// probe meets none.
ProbeOutcome judge_probe(double load, const json& results, const SearchSetup& setup,
                         const cli::RunOptions& options, const std::atomic<bool>& stop) {
  ProbeOutcome outcome{load, false,
                       failed_slo(setup.slos, slo_view(results, setup.slo_window),
                                  options.gate_on),
                       results.value("output_throughput", 0.0),
                       results.value("median_e2e_latency_ms", 0.0)};
  outcome.met =
      outcome.failed_slo.empty() && !(stop.load() && results.value("interrupted", false));
  return outcome;
}

// --output-file and --save-requests hold the search as it is; --html draws its probes as the
// sweep they are (in load order).
bool write_search_files(const cli::RunOptions& options, const json& results, RecordLog* log,
                        std::ostream& err) {
  cli::RunOptions html_apart = options;
  html_apart.html_path.clear();
  RunResults files;
  files.results = results;
  bool written = write_files(html_apart, files, log, err);
  if (!options.html_path.empty()) {
    RunResults as_sweep;
    as_sweep.results = results;
    as_sweep.results[results::key::kind] = results::kind_name(results::Kind::sweep);
    cli::RunOptions html_only;
    html_only.html_path = options.html_path;
    written = write_files(html_only, as_sweep, nullptr, err) && written;
  }
  return written;
}

}  // namespace

int run_search(const cli::RunOptions& options, const cli::SearchOptions& search,
               const std::atomic<bool>& stop, std::ostream& out, std::ostream& err) {
  const SearchSetup setup = search_setup(search);
  const RunPlan plan = plan_run(probe_options(options, search, search.start));
  int failed_early = cli::kExitOk;
  std::optional<PreparedRun> prepared = plan_and_prepare(options, plan, failed_early, err);
  if (!prepared) return failed_early;
  RunServices services;
  if (!open_services(options, plan, *prepared, services, err)) return cli::kExitRunFailed;
  const auto started = std::chrono::steady_clock::now();
  LoadSearch searcher(setup.plan);
  std::vector<json> probes;
  while (const std::optional<double> load = searcher.next()) {
    check_budget(searcher, search, started, probes.size(), stop);
    if (!searcher.next()) break;
    std::variant<json, int> measured = measure_probe(options, search, setup, *prepared, services,
                                                     *load, probes.size(), stop, err);
    if (const int* exit_code = std::get_if<int>(&measured)) return *exit_code;
    probes.push_back(std::move(std::get<json>(measured)));
    const ProbeOutcome outcome = judge_probe(*load, probes.back(), setup, options, stop);
    searcher.record(outcome);
    if (!options.quiet) {
      err << fmt::format("bench search: probe {}: {} {:g}: {}\n", probes.size(), setup.variable,
                         *load, outcome.met ? "meets every SLO" : "fails " + outcome.failed_slo);
    }
  }
  const std::string message = search_message(setup, searcher);
  json results = search_to_json(setup, searcher, probes);
  // The requests' definition, without the loads (the search chose those): two searches of one
  // workload share a fingerprint whatever loads they probed.
  stamp_workload(results, options, workload_definition(options), {},
                 services.flush ? &*services.flush : nullptr);
  print_search(options, results, probes, message, out);
  const bool written = write_search_files(options, results, services.log.get(), err);
  if (searcher.end() == SearchEnd::interrupted) return cli::kExitInterrupted;
  if (!written) return cli::kExitRunFailed;
  return searcher.answer() ? cli::kExitOk : cli::kExitGateFailed;
}

}  // namespace bench::app
