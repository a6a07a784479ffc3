// The planning step: the run's options read once, into the plan every later stage reads.
#include "bench/app/plan/run_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/app/plan/workload_fingerprint.hpp"
#include "bench/cli/values.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/results/format.hpp"
#include "bench/schedule/load_mode.hpp"
#include "bench/tokenizer/hub_cache.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/text.hpp"
#include "bench/workload/prompt_source.hpp"
#include "bench/workload/trace.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// --duration with --num-prompts: whichever comes first ends the measured phase (GuideLLM's
// --max-seconds with --max-requests). Not with --reuse-prompts, where --num-prompts names the
// prompts a timed run cycles through.
bool count_caps_duration(const cli::RunOptions& options) {
  return schedule::is_timed(options.duration_s) && options.num_prompts_given &&
         !options.reuse_prompts;
}

workload::DatasetOptions dataset_options(const cli::RunOptions& options) {
  workload::DatasetOptions dataset = options.dataset;
  // A point's requests, warm-up first, when a count bounds it; a time bound leaves it open.
  const bool timed =
      schedule::is_timed(options.duration_s) || schedule::is_timed(options.warmup_duration_s);
  // A trace replays all its rows unless --num-prompts limits them.
  const bool all_rows =
      options.dataset.kind == workload::DatasetKind::trace && !options.num_prompts_given;
  if (!timed && !all_rows) {
    dataset.count = static_cast<std::size_t>(options.warmup_requests + options.num_prompts);
  }
  dataset.input_len = options.input_len;
  dataset.output_len = options.output_len;
  dataset.seed = options.seed;
  dataset.follow_ups = options.multi_turn.enabled;
  // As --images-per-request: a completions prompt has no image parts.
  if (!protocol::produces(options.endpoint, metrics::Figure::images)) {
    dataset.images_refused = fmt::format("only --endpoint {} sends them, not {}",
                                         protocol::endpoints_producing(metrics::Figure::images),
                                         protocol::endpoint_name(options.endpoint));
  }
  return dataset;
}

// The output length --extra-body sends in place of bench's max_tokens, if it sets one: its
// max_tokens overrides bench's (the body is merged with it), and max_completion_tokens, when
// given, is the one the server honours (vLLM: vllm/entrypoints/openai/protocol.py, OpenAI).
std::optional<std::int64_t> extra_body_output_len(const json& extra_body) {
  for (const char* key : {"max_completion_tokens", "max_tokens"}) {
    const auto found = extra_body.find(key);
    if (found != extra_body.end() && found->is_number_integer()) return found->get<std::int64_t>();
  }
  return std::nullopt;
}

protocol::RequestOptions request_options(const cli::RunOptions& options) {
  protocol::RequestOptions request;
  request.endpoint = options.endpoint;
  request.model = options.model;
  request.ignore_eos = options.ignore_eos;
  request.temperature = options.temperature;
  request.stream = !options.no_stream;
  if (!options.extra_body.empty()) request.extra_body = json::parse(options.extra_body);
  if (!options.tools.empty()) request.tools = json::parse(options.tools);
  if (!options.tool_choice.empty()) {
    request.tool_choice = protocol::tool_choice_value(options.tool_choice);
  }
  if (!options.response_format.empty()) {
    request.response_format = json::parse(options.response_format);
  }
  return request;
}

std::vector<std::string> request_headers(const cli::RunOptions& options) {
  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: text/event-stream, application/json"};
  for (std::string& line : protocol::endpoint_headers(options.endpoint, options.api_key)) {
    headers.push_back(std::move(line));
  }
  for (const std::string& header : options.headers) headers.push_back(header);
  return headers;
}

// A traceparent of bench's own on every request, unless --no-traceparent, or the user's
// --header sets one (theirs is sent as given: one trace for the whole run).
bool sends_traceparent(const cli::RunOptions& options) {
  if (!options.traceparent) return false;
  return std::none_of(options.headers.begin(), options.headers.end(), [](const std::string& line) {
    return util::starts_with_ignoring_case(line, "traceparent:");
  });
}

engine::EngineOptions engine_options(const cli::RunOptions& options) {
  engine::EngineOptions engine;
  engine.connect_timeout_ms = s_to_ms_truncated(options.connect_timeout_s);
  engine.request_timeout_ms = s_to_ms_truncated(options.request_timeout_s);
  engine.ttft_timeout_ms = s_to_ms_truncated(options.ttft_timeout_s);
  engine.stall_timeout_ms = s_to_ms_truncated(options.stall_timeout_s);
  engine.grace_ms = s_to_ms_truncated(options.grace_s);
  engine.insecure = options.insecure;
  engine.cacert_path = options.cacert;
  return engine;
}

// The open-loop schedule's plan of every point, its rate aside (open_loop_plan sets it).
schedule::OpenLoopPlan arrivals_of(const cli::RunOptions& options) {
  schedule::OpenLoopPlan out;
  out.measured.burstiness = options.burstiness;
  out.measured.process = options.constant_rate ? schedule::ArrivalProcess::constant
                                               : schedule::ArrivalProcess::poisson_gamma;
  if (options.ramp_up_strategy != schedule::RampStrategy::none) {
    out.measured.ramp = {options.ramp_up_strategy, options.ramp_up_start_rps,
                         options.ramp_up_end_rps};
  }
  out.measured.seed = options.seed;
  // SGLang draws its gaps raw; vLLM (and bench) rescale them to the exact mean rate.
  out.measured.normalize_mean_rate = options.dialect != cli::Dialect::sglang;
  out.warmup_duration_s = options.warmup_duration_s;
  out.warmup_requests = static_cast<std::size_t>(options.warmup_requests);
  out.measured_duration_s = options.duration_s;
  // With --duration, --num-prompts caps its arrivals only when given (whichever comes first).
  out.measured_requests = schedule::is_timed(options.duration_s) && !count_caps_duration(options)
                              ? std::numeric_limits<std::size_t>::max()
                              : static_cast<std::size_t>(options.num_prompts);
  return out;
}

// --dataset trace: the measured requests are the rows replayed after the warm-up's (at most
// --num-prompts), read from the trace before anything else is planned. Nothing for another
// dataset.
void settle_trace_requests(cli::RunOptions& options, const workload::DatasetOptions& dataset) {
  if (dataset.kind != workload::DatasetKind::trace) return;
  const auto source = workload::open_prompt_source(dataset);
  if (const auto traces = source->agent_traces()) {
    // Recorded sessions: one pass over them unless --num-prompts (sessions) or --duration says.
    if (!options.num_prompts_given) options.num_prompts = static_cast<std::int64_t>(traces->size());
    return;
  }
  const auto offsets = source->arrival_offsets_ns();
  if (offsets == nullptr) return;
  const auto rows = static_cast<std::int64_t>(offsets->size());
  if (rows <= options.warmup_requests) {
    throw std::invalid_argument(
        fmt::format("--warmup-requests {}: the trace replays {} rows, which leaves none to measure",
                    options.warmup_requests, rows));
  }
  const std::int64_t left = rows - options.warmup_requests;
  options.num_prompts = options.num_prompts_given ? std::min(options.num_prompts, left) : left;
}

// --multi-turn: --num-prompts counts sessions, each turn of one a request; a sharegpt
// conversation's number of turns is known only when its session starts.
std::string describe_sessions(const cli::RunOptions& options, const std::string& bound) {
  const workload::MultiTurnOptions& multi_turn = options.multi_turn;
  if (workload::replays_agent_sessions(options.dataset)) {  // recorded session trees
    const std::string count = schedule::is_timed(options.duration_s)
                                  ? bound + ", sessions"
                                  : fmt::format("{} sessions", options.num_prompts);
    return fmt::format(
        "{} replayed as recorded (their requests, subagents and gaps, each gap at "
        "most {:g} s)",
        count, options.dataset.trace.max_gap_s);
  }
  bool random = options.dataset.kind == workload::DatasetKind::random;
  std::string turns = fmt::format("of {} turns", multi_turn.turns.value_or(1));
  if (!random) {
    turns = multi_turn.turns
                ? fmt::format("of their conversations' turns (at most {})", *multi_turn.turns)
                : "of their conversations' turns";
  }
  if (multi_turn.agent()) {
    const std::string until =
        multi_turn.session_context
            ? fmt::format("until a turn's prompt reaches {} tokens", *multi_turn.session_context)
            : std::string();
    const std::string cap =
        multi_turn.turns
            ? fmt::format("{}{} turns", until.empty() ? "of " : ", at most ", *multi_turn.turns)
            : std::string();
    const std::string fan_out =
        multi_turn.fan_out ? fmt::format(", each fanning out to {} branches after its first turn",
                                         *multi_turn.fan_out)
                           : std::string();
    turns = fmt::format("(agents: tool results of {} words{}) {}{}", *multi_turn.tool_result_len,
                        fan_out, until, cap);
    random = false;  // the number of turns is known as the session goes
  }
  const std::string open =
      multi_turn.sessions ? fmt::format(", {} open at once", *multi_turn.sessions) : "";
  if (schedule::is_timed(options.duration_s)) {
    return fmt::format("{}, sessions {} (a request a turn){}", bound, turns, open);
  }
  const std::string requests =
      random ? fmt::format("{} requests", options.num_prompts * multi_turn.turns.value_or(1))
             : "a request a turn";
  return fmt::format("{} sessions {} ({}){}", options.num_prompts, turns, requests, open);
}

// The start-up line's load: the cap, the arrivals, the bound, the warm-up and the repeats.
// A closed loop counted by --num-prompts whose --concurrency exceeds it: no more than that many
// requests are ever in flight, and with fewer than 90% of the target in flight there is no
// steady state. Said before anything is sent; nullopt for a load that can be reached.
std::optional<std::string> unreachable_concurrency(const cli::RunOptions& options) {
  const bool closed = !cli::any_open_loop(options) && options.request_rates.size() == 1 &&
                      !options.multi_turn.enabled;
  const bool counted = !schedule::is_timed(options.duration_s) || count_caps_duration(options);
  if (!closed || !counted) return std::nullopt;
  std::vector<std::int64_t> beyond;
  for (std::int64_t concurrency : options.concurrency) {
    if (concurrency > options.num_prompts) beyond.push_back(concurrency);
  }
  if (beyond.empty()) return std::nullopt;
  return fmt::format(
      "--concurrency {} cannot be reached: the run sends {} measured requests (--num-prompts), "
      "so at most {} are ever in flight and there is no steady state at that load; lower "
      "--concurrency or raise --num-prompts",
      fmt::join(beyond, ","), options.num_prompts, options.num_prompts);
}

std::string describe_load(const cli::RunOptions& options) {
  std::string load;
  const bool closed = !cli::any_open_loop(options);
  if (options.dataset.kind == workload::DatasetKind::trace) {
    load =
        options.multi_turn.enabled
            ? fmt::format("the weka trace's sessions at {:g}x speed", options.dataset.trace.speed)
            : fmt::format("arrivals of the {} trace at {:g}x speed",
                          workload::trace_format_name(options.dataset.trace.format),
                          options.dataset.trace.speed);
  } else if (options.ramp_up_strategy != schedule::RampStrategy::none) {
    load = fmt::format("rate ramping {} from {:g} to {:g} req/s",
                       schedule::ramp_strategy_name(options.ramp_up_strategy),
                       options.ramp_up_start_rps, options.ramp_up_end_rps);
  } else {
    std::vector<std::string> rates;
    for (double rate : options.request_rates) rates.push_back(results::value_label(rate));
    load = !closed ? fmt::format("request rate {} req/s{}", fmt::join(rates, ","),
                                 options.constant_rate ? " (constant)" : "")
                   : "closed loop";
  }
  std::string bound = fmt::format("{} requests", options.num_prompts);
  if (schedule::is_timed(options.duration_s)) {
    const std::string timed = fmt::format("for {}{}", cli::format_duration(options.duration_s),
                                          options.duration_hard ? " (hard)" : "");
    bound = count_caps_duration(options)
                ? fmt::format("{} or {}, whichever comes first", timed, bound)
                : timed;
  }
  if (options.multi_turn.enabled) bound = describe_sessions(options, bound);
  std::string warmup =
      schedule::is_timed(options.warmup_duration_s)
          ? fmt::format(" after {} of warm-up", cli::format_duration(options.warmup_duration_s))
          : fmt::format(" ({} warm-up)", options.warmup_requests);
  const bool trees = workload::replays_agent_sessions(options.dataset);
  if (trees) {
    warmup = options.dataset.trace.start_at_random
                 ? ", each from a random request (the one before it sent as warm-up)"
                 : ", each from its first request";
  }
  const std::string repeats =
      options.repeat > 1 ? fmt::format(", measured {} times each", options.repeat) : "";
  // An open loop without --concurrency has no cap (its 65536 slots are no one's choice).
  std::string cap = !options.concurrency_given && !closed
                        ? std::string("no concurrency cap")
                        : fmt::format("concurrency {}", fmt::join(options.concurrency, ","));
  if (trees) {  // session trees at once; their subagents take no lane
    cap = options.concurrency_given ? fmt::format("{} session trees at once (subagents besides)",
                                                  fmt::join(options.concurrency, ","))
                                    : std::string("every session tree at once");
  }
  std::vector<std::string> shares;
  for (double share : options.dataset.prefix_shares) shares.push_back(fmt::format("{:g}", share));
  const std::string prefix =
      shares.empty() ? "" : fmt::format(", prefix share {}", fmt::join(shares, ","));
  return fmt::format("{}, {}, {}{}{}{}", cap, load, bound, prefix, warmup, repeats);
}

TokenizerPlan tokenizer_plan(const cli::RunOptions& options) {
  TokenizerPlan tokenizer;
  tokenizer.name = options.tokenizer;
  if (options.tokenizer == "server") {
    tokenizer.source = TokenizerSource::server;
  } else if (options.tokenizer == "words") {
    tokenizer.source = TokenizerSource::words;
  } else if (!options.tokenizer.empty()) {
    tokenizer.source = tokenizer::looks_like_repo_id(options.tokenizer) ? TokenizerSource::hub
                                                                        : TokenizerSource::file;
  }
  tokenizer.input_len_includes_template = options.input_len_includes_template;
  return tokenizer;
}

// The asks as given, whole; the servers and the timeouts as the later stages take them.
ServerPlan server_plan(const cli::RunOptions& options) {
  return {options.server,
          options.base_urls,
          options.server_weights,
          options.sim,
          s_to_ms_truncated(options.ready_timeout_s),
          s_to_ms_truncated(options.startup_timeout_s)};
}

// bench's own live figures: a shard labels its samples with its index, so Prometheus sums them.
live::LiveOptions live_options(const cli::RunOptions& options, const ShardPlan& shard) {
  live::LiveOptions live;
  if (options.metrics_listen) {
    live.listen_host = options.metrics_listen->host;
    live.listen_port = options.metrics_listen->port;
  }
  live.jsonl_path = options.live_jsonl;
  live.window_s = options.metrics_window_s;
  live.linger_s = options.metrics_linger_s;
  live.otlp_endpoint = options.otlp_endpoint;
  if (shard.count > 1) live.shard = std::to_string(shard.index);
  return live;
}

// What the plan takes of the options as they are after a trace's rows are settled.
void plan_settled(const cli::RunOptions& options, RunPlan& plan) {
  plan.input_len = options.input_len;
  plan.tokenizer = tokenizer_plan(options);
  plan.multi_turn = options.multi_turn;
  plan.reuse_prompts = options.reuse_prompts;
  plan.seed = options.seed;
  plan.images = options.images;
  if (plan.images.enabled()) {
    plan.image_nonce = std::uint64_t{std::random_device{}()} << 32 | std::random_device{}();
  }
  plan.concurrency_given = options.concurrency_given;
  plan.most_concurrency = *std::max_element(options.concurrency.begin(), options.concurrency.end());
  plan.bounds = {options.num_prompts, options.warmup_requests, options.warmup_duration_s,
                 options.duration_s,  options.duration_hard,   count_caps_duration(options)};
  plan.arrivals = arrivals_of(options);
  plan.ramp = {options.ramp_up_strategy, options.ramp_up_start_rps, options.ramp_up_end_rps};
  plan.shard = {static_cast<std::size_t>(options.shard_index),
                static_cast<std::size_t>(std::max<std::int64_t>(1, options.shard_count)),
                options.shard_source, options.start_at_unix_ns, options.start_at};
  plan.client_threads = options.client_threads;
  plan.preconnect = options.preconnect;
  plan.goodput = options.goodput;
  plan.accelerators = {options.gpus, options.gpu_hour_price};
  plan.latency_sample_budget = options.latency_sample_budget;
  plan.server = server_plan(options);
  plan.output = {options.output, results::parse_compat(options.json_compat)};
  plan.live = live_options(options, plan.shard);
  plan.config = cli::options_to_json(options);
  plan.workload = workload_definition(options);
  plan.load_line = describe_load(options);
  if (const auto unreachable = unreachable_concurrency(options)) {
    plan.load_warnings.push_back(*unreachable);
  }
  // A peer's command line: how it was read (the peer's defaults bench did not take are said
  // once, by the report, from the results' config).
  plan.flag_notes = options.dialect_notes;
  if (options.trust_remote_code) {
    plan.flag_notes.push_back(
        "--trust-remote-code does nothing here: bench reads tokenizer.json itself and runs no "
        "model code");
  }
}

}  // namespace

RunPlan plan_run(const cli::RunOptions& given) {
  RunPlan plan;
  plan.dataset = dataset_options(given);
  cli::RunOptions options = given;
  settle_trace_requests(options, plan.dataset);  // a trace's rows are its requests
  // --reuse-prompts: what every point resends, as bench did before prompts were fresh: one
  // prompt per request of a counted point, or --num-prompts cycled through by a timed one.
  if (options.reuse_prompts) {
    plan.reuse_prompts_modulo =
        static_cast<std::uint64_t>(plan.dataset.count.value_or(given.num_prompts));
  }
  plan.request = request_options(options);
  plan.output_len = options.output_len;
  if (const auto sent = extra_body_output_len(plan.request.extra_body)) {
    plan.output_len = *sent;
    plan.output_len_from_extra_body = true;
  }
  plan.headers = request_headers(options);
  plan.traceparent = sends_traceparent(options);
  plan.engine = engine_options(options);
  plan.unreachable_timeout_ns = s_to_ms_truncated(options.unreachable_timeout_s) * kNsPerMs;
  const auto line_bytes = static_cast<std::size_t>(options.max_line_bytes);
  plan.limits = {line_bytes, line_bytes, static_cast<std::size_t>(options.max_response_bytes)};
  // One share a point when --prefix-share lists several (its points take streams in this
  // order, which is how the prompt source tells a stream's share: workload/prefix_share.hpp).
  std::vector<std::optional<double>> shares(plan.dataset.prefix_shares.begin(),
                                            plan.dataset.prefix_shares.end());
  if (shares.empty()) shares.emplace_back();
  for (std::int64_t concurrency : options.concurrency) {
    for (double rate : options.request_rates) {
      for (const std::optional<double>& share : shares) {
        plan.points.push_back({concurrency, rate, plan.points.size(), 0, share});
      }
    }
  }
  plan.repeats = static_cast<std::size_t>(std::max<std::int64_t>(1, options.repeat));
  if (shares.size() > 1) {
    plan.sweep_variable = SweepVariable::prefix_share;
  } else if (options.request_rates.size() > 1) {
    plan.sweep_variable = SweepVariable::request_rate;
  } else if (options.concurrency.size() > 1) {
    plan.sweep_variable = SweepVariable::concurrency;
  }
  plan_settled(options, plan);
  return plan;
}

ProbePlanner::ProbePlanner(const cli::RunOptions& options, const cli::SearchOptions& search)
    : options_(options), search_(search), workload_(workload_definition(options)) {}

RunPlan ProbePlanner::at(double load) const {
  cli::RunOptions probe = options_;
  if (search_.over == cli::SearchOver::rate) {
    probe.request_rates = {load};
    if (!options_.concurrency_given) probe.concurrency = {cli::kOpenLoopDefaultCap};
    // Sized by time, not --num-prompts alone: at least kProbeRateSeconds of arrivals at its
    // rate. With --duration alone, its time sizes it.
    probe.num_prompts = std::max(options_.num_prompts,
                                 static_cast<std::int64_t>(std::ceil(load * kProbeRateSeconds)));
  } else {
    probe.concurrency = {static_cast<std::int64_t>(load)};
    // Sized by its load, not --num-prompts alone: at least kProbeWaves waves of it (its
    // concurrency in requests, each), so that it holds its load for waves on end and its
    // steady state holds as many completions; fewer requests than the concurrency could never
    // hold it at all. With --duration alone, its time sizes it.
    probe.num_prompts = std::max(options_.num_prompts, kProbeWaves * probe.concurrency.front());
    // Recorded agents count session trees: waves of trees (not one pass of the files, nor the
    // default count of requests).
    if (workload::replays_agent_sessions(options_.dataset)) {
      probe.num_prompts =
          options_.num_prompts_given ? probe.num_prompts : kProbeWaves * probe.concurrency.front();
      probe.num_prompts_given = true;
    }
  }
  // Unless --warmup-* was given, one wave of warm-up (the load's concurrency in requests), so
  // a closed loop's opening burst, all requests arriving at once, is not what the SLOs judge.
  if (!search_.warmup_given && search_.over == cli::SearchOver::concurrency &&
      search_.slo_window == cli::SloWindow::steady) {
    probe.warmup_requests = probe.concurrency.front();
  }
  RunPlan plan = plan_run(probe);
  // Labels say the probe's load; the open files are the run's options' (as the search prepares).
  plan.sweep_variable = search_.over == cli::SearchOver::rate ? SweepVariable::request_rate
                                                              : SweepVariable::concurrency;
  plan.most_concurrency =
      *std::max_element(options_.concurrency.begin(), options_.concurrency.end());
  return plan;
}

}  // namespace bench::app
