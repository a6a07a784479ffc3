// Measuring one load point: its warm-up phase apart when the server's counters need a quiet
// window, the run with its progress line, the point's results object and the notes on it, and
// --repeat's repeats combined.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/plan/shard_results.hpp"
#include "bench/app/point/live_counters.hpp"
#include "bench/app/point/progress.hpp"
#include "bench/app/point/run_point.hpp"
#include "bench/app/point/self_check.hpp"
#include "bench/app/run/point_prompts.hpp"
#include "bench/app/run/prime_prefix.hpp"
#include "bench/app/run/run_stages.hpp"
#include "bench/app/server/server_identity.hpp"
#include "bench/app/server/server_tokenizer.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/results/format.hpp"
#include "bench/results/lengths.hpp"
#include "bench/results/per_server.hpp"
#include "bench/results/repeats.hpp"
#include "bench/schedule/load_mode.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

using nlohmann::json;

namespace {

// What the progress line counts towards.
ProgressPlan progress_plan(const RunPlan& plan, const LoadPoint& point,
                           const schedule::OpenLoopSchedule* schedule) {
  const PointBounds& bounds = plan.bounds;
  ProgressPlan shown;
  shown.label = point_label_text(plan, point);
  if (bounds.timed()) {
    shown.duration_s = bounds.duration_s + bounds.warmup_duration_s;
  } else if (schedule != nullptr) {
    shown.total_requests = static_cast<std::int64_t>(schedule->size());
  } else if (bounds.warmup_duration_s == 0 && !plan.multi_turn.enabled) {
    // (--multi-turn: --num-prompts counts sessions, whose turns are not known ahead)
    shown.total_requests = bounds.warmup_requests + bounds.num_prompts;
  }
  return shown;
}

// The live feed's name for the point: its label in a sweep or with repeats, else its load (a
// single run's, a search probe's): its rate when it has one, else its concurrency (a closed
// loop's, and the cap of a ramp or a trace, which have no one rate to name).
std::string live_label(const RunPlan& plan, const LoadPoint& point) {
  std::string label = point_label_text(plan, point);
  if (!label.empty()) return label;
  return std::isfinite(point.rate_per_s) ? "rate=" + results::value_label(point.rate_per_s)
                                         : fmt::format("c={}", point.concurrency);
}

// Runs the point, with the progress line while it runs.
PointResult run_with_progress(const RunPlan& plan, const LoadPoint& point, PointPlan& planned,
                              const schedule::OpenLoopSchedule* schedule, LiveCounters& live,
                              const StopFlag& stop, std::ostream& err) {
  planned.driver.watchers.live = &live;
  std::optional<Progress> progress;
  if (progress_wanted(plan.output.quiet || plan.output.no_progress)) {
    ProgressPlan shown = progress_plan(plan, point, schedule);
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
results::LengthCheck check_lengths(const RunPlan& plan, const PreparedRun& prepared,
                                   const metrics::RunSummary& summary) {
  results::LengthFigures figures;
  figures.tokens = lengths_in_tokens(plan, prepared);
  if (prepared.tokenizer != nullptr) figures.tokenizer = prepared.tokenizer->description();
  figures.words_reason = words_reason(plan, prepared);
  figures.requested_input = summary.mean_requested_input_len;
  if (prepared.template_overhead) {
    figures.template_tokens = static_cast<double>(prepared.template_overhead->tokens);
  }
  figures.template_included = plan.tokenizer.input_len_includes_template;
  // A completions prompt is encoded by the server with its special tokens (vLLM's
  // add_special_tokens=True, llama.cpp's add_bos_token): bench's prompts are content only, so
  // the BOS is expected beside them. On chat, the template's measure already holds it.
  if (figures.tokens && prepared.tokenizer != nullptr &&
      !protocol::takes_messages(prepared.request.endpoint)) {
    if (const auto added = prepared.tokenizer->added_special_tokens()) {
      figures.special_tokens = static_cast<double>(*added);
    }
  }
  const bool all_usage = summary.completed > 0;
  // With images (--images-per-request, a dataset's files) the server's count holds the images'
  // tokens, which no requested length does: the input check cannot be made (null), and the
  // text + images line shows the split instead (results/image_split.hpp).
  const bool images =
      plan.images.enabled() || (prepared.prompts != nullptr && prepared.prompts->images().any());
  if (all_usage && summary.input_tokens_from_usage == summary.completed && !images) {
    figures.server_prompt_tokens = summary.mean_prompt_tokens;
  }
  figures.requested_output = summary.mean_requested_output_len;
  if (all_usage && summary.output_tokens_from_usage == summary.completed) {
    figures.server_completion_tokens = summary.mean_completion_tokens;
  } else if (all_usage && summary.output_tokens_from_tokenizer == summary.completed) {
    figures.tokenizer_completion_tokens = summary.mean_completion_tokens;
  }
  figures.ignore_eos = plan.request.ignore_eos;
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
PointReport report_point(const RunPlan& plan, const PreparedRun& prepared, const LoadPoint& point,
                         PointResult result,
                         std::optional<results::ServerMetricsWindow> server_window,
                         std::ostream& err) {
  PointReport out;
  out.summary = std::move(result.summary);
  out.stopped_early = result.stopped_early;
  out.context = point_context(plan, prepared, point);
  out.context.server_metrics = std::move(server_window);
  if (out.context.server_metrics) {
    out.context.server_metrics->records_epoch_steady_ns = result.clock.epoch_steady_ns;
  }
  out.context.started_at = wall_clock_iso8601();
  out.context.interrupted = result.interrupted;
  out.context.client = check_client(out.summary, result.client);
  out.results = results::to_json(out.summary, out.context);
  stamp_shard(out.results, plan.shard, result);
  put_per_server(out.results, prepared, out.summary.duration_s, result);
  const bool asked = protocol::asks_per_chunk_usage(prepared.request);
  out.results["per_chunk_usage"] = out.summary.requests_with_per_chunk_usage > 0;
  out.results["per_chunk_usage_asked"] = asked;
  if (!result.stopped_early.empty()) out.results["stopped_early"] = result.stopped_early;
  const results::LengthCheck lengths = check_lengths(plan, prepared, out.summary);
  out.results.update(lengths.keys);
  if (plan.output.quiet) return out;
  if (asked && out.summary.requests_with_per_chunk_usage < out.summary.completed) {
    err << fmt::format("bench: per-chunk usage: asked, received on {} of {} completed requests\n",
                       out.summary.requests_with_per_chunk_usage, out.summary.completed);
  }
  const std::string label = point_label_text(plan, point);
  for (const std::string& warning : lengths.warnings) {
    err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << warning << "\n";
  }
  // Said once: a single run's text report on stdout says the client's warnings in its Client
  // section, where they stay in a saved copy; any other output (JSON, CSV, a sweep's table, the
  // repeats') does not, so stderr says them.
  const bool text_report_says_them = plan.output.format == cli::OutputFormat::text &&
                                     plan.sweep_variable == SweepVariable::none &&
                                     plan.repeats == 1;
  if (!text_report_says_them) {
    for (const std::string& warning : out.context.client.warnings) {
      err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << warning
          << "\n";
    }
  }
  if (const auto cache = results::prompt_cache_warning(out.summary, out.context)) {
    err << "bench: warning" << (label.empty() ? "" : " (" + label + ")") << ": " << *cache << "\n";
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
bool drains_warmup(const PointBounds& bounds, const schedule::OpenLoopSchedule* schedule) {
  if (schedule != nullptr) {
    return schedule->warmup_requests() > 0 && schedule->measured_start_ns().has_value();
  }
  return bounds.warmup_requests > 0 || schedule::is_timed(bounds.warmup_duration_s);
}

// Sends the point's warm-up requests [0, warmup) and waits for them all to end; the measured
// phase then starts from request `warmup`, on connections opened before it as usual. A closed
// loop warmed up by time sends until its warm-up's end, then drains, and the measured phase
// starts after the last request it sent. An open loop's measured phase keeps its schedule,
// moved earlier so that its first request is due at once (its epoch leads by that request's
// offset).
void run_warmup_alone(PointPlan& planned, const schedule::OpenLoopSchedule* schedule,
                      const StopFlag& stop) {
  const bool closed_by_time = schedule == nullptr && planned.driver.per_prompt.warmup_until_ns > 0;
  const std::size_t warmup =
      schedule != nullptr ? schedule->warmup_requests() : planned.driver.per_prompt.warmup_requests;
  PointPlan phase = planned;
  if (closed_by_time) {
    phase.driver.per_prompt.send_until_ns = planned.driver.per_prompt.warmup_until_ns;
  } else {
    phase.driver.per_prompt.end_request = warmup;
  }
  phase.measured_requests = std::numeric_limits<std::size_t>::max();
  phase.checkpoint = nullptr;  // the warm-up measures nothing to keep
  const PointResult warmed = run_point(phase, stop);
  planned.first_request = closed_by_time ? warmed.next_request : warmup;
  // Every request of the measured phase is measured: its epoch is new, so "sent before the
  // warm-up's end" would mark its first requests as warm-up again.
  if (closed_by_time) planned.driver.per_prompt.warmup_until_ns = 0;
  if (schedule != nullptr) planned.epoch_lead_ns = schedule->measured_start_ns().value_or(0);
  planned.start_at_unix_ns.reset();  // the warm-up waited for --start-at
}

PointReport measure_point(const RunPlan& plan, const PreparedRun& prepared, const LoadPoint& point,
                          const PointTools& tools, const StopFlag& stop, std::ostream& err) {
  RecordLog* log = tools.log;
  ServerMetricsScraper* scraper = tools.scraper;
  const std::optional<std::string> unprimed = prime_prefix(plan, prepared, point, stop);
  if (unprimed && !plan.output.quiet) {
    err << "bench: warning (" << live_label(plan, point) << "): " << *unprimed << "\n";
  }
  schedule::OpenLoopPlan arrivals = open_loop_plan(plan, point.rate_per_s);
  arrivals.given_offsets_ns = prepared.prompts->arrival_offsets_ns();  // a trace's own
  const std::optional<schedule::OpenLoopSchedule> schedule =
      schedule::build_open_loop_schedule(arrivals);
  const schedule::OpenLoopSchedule* offsets = schedule ? &*schedule : nullptr;
  PointPlan planned = point_plan(plan, prepared, point, offsets);
  const std::optional<PromptsMadeAhead> ahead =
      make_prompts_ahead(plan, prepared, planned, offsets);
  if (ahead) {
    planned.driver.bodies.prompts.source = ahead->prompts.get();
    planned.driver.bodies.build_ahead_below = ahead->requests;
    if (!plan.output.quiet) {
      err << fmt::format(
          "bench: prompts: {} made ahead in {:.2f} s ({} /tokenize requests, out of every "
          "figure)\n",
          ahead->prompts->made(), ahead->seconds, ahead->tokenize_requests);
    }
  }
  const std::optional<std::uint64_t> tokenize_before = server_tokenize_requests(prepared);
  planned.log = log;
  if (tools.checkpoint != nullptr) {
    // Made here, on this thread: the checkpoints' thread only joins it to the figures.
    planned.checkpoint = [context = point_context(plan, prepared, point),
                          checkpoint = tools.checkpoint](const metrics::RunSummary& summary) {
      checkpoint->write(results::to_json(summary, context));
    };
  }
  planned.driver.target.redactor = prepared.redactor.get();
  if (tools.live != nullptr) {
    tools.live->begin_point(live_label(plan, point));
    planned.driver.watchers.feed = &tools.live->feed();
  }
  if (log != nullptr && (plan.sweep_variable != SweepVariable::none || plan.repeats > 1)) {
    log->set_point(point_label(plan, point));
  }
  // The server's window opens at a quiet point: after the warm-up has drained, when it can.
  const bool drain_warmup = scraper != nullptr && drains_warmup(plan.bounds, offsets);
  if (drain_warmup) run_warmup_alone(planned, offsets, stop);
  LiveCounters live;  // read by the progress line and by the server's gauge polls
  if (scraper != nullptr) scraper->before_point(&live);
  PointResult result = run_with_progress(plan, point, planned, offsets, live, stop, err);
  std::optional<results::ServerMetricsWindow> server_window;
  if (scraper != nullptr) {
    server_window = scraper->after_point(drain_warmup ? 0 : plan.bounds.warmup_requests, err,
                                         plan.output.quiet);
    server_window->warmup_drained = drain_warmup;
  }
  PointReport report =
      report_point(plan, prepared, point, std::move(result), std::move(server_window), err);
  // Made while the point ran, these requests loaded the server under test (docs/usage.md).
  const std::optional<std::uint64_t> tokenize_after = server_tokenize_requests(prepared);
  report.results[kServerKey] = identity_json(prepared.server);
  if (point.prefix_share.value_or(0) > 0)
    report.results[results::key::prefix_primed] = !unprimed.has_value();
  report.results[results::key::server_tokenize_requests] =
      tokenize_before && tokenize_after ? nlohmann::json(*tokenize_after - *tokenize_before)
                                        : nlohmann::json();
  report.results[results::key::tokenize_requests_ahead] =
      ahead ? nlohmann::json(ahead->tokenize_requests) : nlohmann::json();
  report.results[results::key::prompts_ahead_s] =
      ahead ? nlohmann::json(ahead->seconds) : nlohmann::json();
  return report;
}

}  // namespace

// The point measured plan.repeats times, one measure_point() after another (the path of every
// measurement), each repeat with its own prompts: repeat r takes the point's stream plus r x
// `stream_stride` (the run's points, or a search's most probes); with one, the point's report.
PointReport measure_repeated(const RunPlan& plan, const PreparedRun& prepared,
                             const LoadPoint& point, const PointTools& tools,
                             std::size_t stream_stride, const StopFlag& stop, std::ostream& err) {
  std::vector<PointReport> repeats;
  for (std::size_t r = 0; r < plan.repeats; ++r) {
    if (r > 0 && stop.load()) break;
    if (tools.flush != nullptr) tools.flush->before_point(err);
    const LoadPoint repeat = repeat_of(point, r, stream_stride);
    repeats.push_back(measure_point(plan, prepared, repeat, tools, stop, err));
    stamp_workload(repeats.back().results, plan, plan.workload, {point}, tools.flush);
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

}  // namespace bench::app
