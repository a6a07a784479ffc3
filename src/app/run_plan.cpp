#include "bench/app/run_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/app/provenance.hpp"
#include "bench/app/server_metrics_scrape.hpp"
#include "bench/results/format.hpp"
#include "bench/sim/sim_options.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

std::int64_t seconds_to_ms(double seconds) { return static_cast<std::int64_t>(seconds * 1000); }
std::int64_t seconds_to_ns(double seconds) { return static_cast<std::int64_t>(seconds * 1e9); }

workload::DatasetOptions dataset_options(const cli::RunOptions& options) {
  workload::DatasetOptions dataset = options.dataset;
  // A point's requests, warm-up first, when a count bounds it; a time bound leaves it open.
  const bool timed = options.duration_s > 0 || options.warmup_duration_s > 0;
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
  if (!options.api_key.empty()) headers.push_back("Authorization: Bearer " + options.api_key);
  for (const std::string& header : options.headers) headers.push_back(header);
  return headers;
}

engine::EngineOptions engine_options(const cli::RunOptions& options) {
  engine::EngineOptions engine;
  engine.connect_timeout_ms = seconds_to_ms(options.connect_timeout_s);
  engine.request_timeout_ms = seconds_to_ms(options.request_timeout_s);
  engine.ttft_timeout_ms = seconds_to_ms(options.ttft_timeout_s);
  engine.stall_timeout_ms = seconds_to_ms(options.stall_timeout_s);
  engine.grace_ms = seconds_to_ms(options.grace_s);
  engine.insecure = options.insecure;
  engine.cacert_path = options.cacert;
  return engine;
}

}  // namespace

RunPlan plan_run(const cli::RunOptions& options) {
  RunPlan plan;
  plan.dataset = dataset_options(options);
  // --reuse-prompts: what every point resends, as bench did before prompts were fresh: one
  // prompt per request of a counted point, or --num-prompts cycled through by a timed one.
  if (options.reuse_prompts) {
    plan.reuse_prompts_modulo =
        static_cast<std::uint64_t>(plan.dataset.count.value_or(options.num_prompts));
  }
  plan.request = request_options(options);
  plan.output_len = options.output_len;
  if (const auto sent = extra_body_output_len(plan.request.extra_body)) {
    plan.output_len = *sent;
    plan.output_len_from_extra_body = true;
  }
  plan.headers = request_headers(options);
  plan.engine = engine_options(options);
  const auto line_bytes = static_cast<std::size_t>(options.max_line_bytes);
  plan.limits = {line_bytes, line_bytes, static_cast<std::size_t>(options.max_response_bytes)};
  for (std::int64_t concurrency : options.concurrency) {
    for (double rate : options.request_rates) {
      plan.points.push_back({concurrency, rate, plan.points.size()});
    }
  }
  plan.repeats = static_cast<std::size_t>(std::max<std::int64_t>(1, options.repeat));
  if (options.request_rates.size() > 1) {
    plan.sweep_variable = "request_rate";
  } else if (options.concurrency.size() > 1) {
    plan.sweep_variable = "concurrency";
  }
  return plan;
}

schedule::OpenLoopPlan open_loop_plan(const cli::RunOptions& options, double rate_per_s) {
  schedule::OpenLoopPlan out;
  out.measured.rate_per_s = rate_per_s;
  out.measured.burstiness = options.burstiness;
  out.measured.process = options.constant_rate ? schedule::ArrivalProcess::constant
                                               : schedule::ArrivalProcess::poisson_gamma;
  if (options.ramp_up_strategy != schedule::RampStrategy::none) {
    out.measured.ramp = {options.ramp_up_strategy, options.ramp_up_start_rps,
                         options.ramp_up_end_rps};
  }
  out.measured.seed = options.seed;
  out.warmup_duration_s = options.warmup_duration_s;
  out.warmup_requests = static_cast<std::size_t>(options.warmup_requests);
  out.measured_duration_s = options.duration_s;
  out.measured_requests = static_cast<std::size_t>(options.num_prompts);
  return out;
}

void settle_trace_requests(cli::RunOptions& options, const workload::PromptSource& prompts) {
  const auto offsets = prompts.arrival_offsets_ns();
  if (offsets == nullptr) return;
  const auto rows = static_cast<std::int64_t>(offsets->size());
  if (rows <= options.warmup_requests) {
    throw std::invalid_argument(fmt::format(
        "--warmup-requests {}: the trace replays {} rows, which leaves none to measure",
        options.warmup_requests, rows));
  }
  const std::int64_t left = rows - options.warmup_requests;
  options.num_prompts = options.num_prompts_given ? std::min(options.num_prompts, left) : left;
}

namespace {

// How many connections a point opens before its epoch: --preconnect, or what the point will
// hold open at once: a closed loop its concurrency; an open loop one second of arrivals (a
// request lasting longer than that makes more), within its concurrency cap and its requests.
std::int64_t preconnect_count(const cli::RunOptions& options, const LoadPoint& point,
                              const schedule::OpenLoopSchedule* schedule) {
  if (options.preconnect >= 0) return options.preconnect;
  if (schedule == nullptr) return point.concurrency;
  const double per_second = std::isfinite(point.rate_per_s) ? std::ceil(point.rate_per_s) : 1.0;
  const auto arrivals = static_cast<std::int64_t>(schedule->size());
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(per_second), 1,
                                  std::max<std::int64_t>(1, std::min(point.concurrency, arrivals)));
}

}  // namespace

bool lengths_in_tokens(const cli::RunOptions& options, const PreparedRun& prepared) {
  const workload::DatasetKind kind = options.dataset.kind;
  if (kind == workload::DatasetKind::random_ids) return true;
  return prepared.tokenizer != nullptr && kind != workload::DatasetKind::shared_prefix;
}

namespace {

// --multi-turn: --num-prompts sessions (unbounded with --duration), --sessions of them open at
// once (the point's concurrency by default), each turn's text from the point's prompt stream.
void set_sessions(const cli::RunOptions& options, const LoadPoint& point, DriverPlan& driver) {
  const workload::MultiTurnOptions& multi_turn = options.multi_turn;
  SessionPlan sessions;
  if (options.duration_s <= 0) sessions.end = static_cast<std::uint64_t>(options.num_prompts);
  std::int64_t open = multi_turn.sessions.value_or(point.concurrency);
  if (options.shard_count > 1) {
    open = shard_share(open, static_cast<std::size_t>(options.shard_count),
                       static_cast<std::size_t>(options.shard_index));
  }
  sessions.open_at_once = static_cast<std::size_t>(std::max<std::int64_t>(1, open));
  sessions.think_time = multi_turn.think_time;
  sessions.seed = options.seed;
  const workload::PromptSource* source = driver.prompts;
  const std::uint64_t stream = point.prompt_stream;
  const std::optional<std::int64_t> turns = multi_turn.turns;
  const bool conversations = options.dataset.kind == workload::DatasetKind::sharegpt;
  sessions.turns_of = [source, stream, turns, conversations](std::uint64_t session) {
    return workload::session_turns(*source, stream, session, turns, conversations);
  };
  driver.sessions = std::move(sessions);
  driver.session_header = multi_turn.session_header;
}

}  // namespace

PointPlan point_plan(const cli::RunOptions& options, const RunPlan& plan,
                     const PreparedRun& prepared, const LoadPoint& point,
                     const schedule::OpenLoopSchedule* schedule) {
  PointPlan out;
  DriverPlan& driver = out.driver;
  driver.urls = prepared.urls.empty() ? std::vector<std::string>{prepared.url} : prepared.urls;
  driver.spread = prepared.spread.get();
  driver.headers = &plan.headers;
  driver.request = prepared.request;
  driver.limits = plan.limits;
  // A tokenizer file counts what a stream without usage generated, once per request at its end.
  // The server's tokenizer does not: a /tokenize round trip per request, on the event loop and
  // to the server under test, would bias what is measured, so those keep the chunk estimate.
  if (!options.tokenizer.empty() && options.tokenizer != "server") {
    driver.output_counter = prepared.tokenizer.get();
  }
  driver.prompts = prepared.prompts.get();
  driver.prompt_stream = point.prompt_stream;
  driver.reuse_prompts_modulo = plan.reuse_prompts_modulo;
  if (plan.output_len_from_extra_body) driver.output_len_override = plan.output_len;
  if (schedule != nullptr) {
    driver.schedule = schedule;
    driver.warmup_requests = schedule->warmup_requests();
  } else {
    driver.warmup_requests = static_cast<std::size_t>(options.warmup_requests);
    driver.warmup_until_ns = seconds_to_ns(options.warmup_duration_s);
  }
  driver.measured_duration_ns = seconds_to_ns(options.duration_s);
  driver.cancel_at_duration_end = options.duration_hard;
  if (options.multi_turn.enabled) set_sessions(options, point, driver);
  out.engine = plan.engine;
  out.engine.concurrency = point.concurrency;
  // A closed loop counts its measured requests; an open loop's schedule and a time bound
  // end the run themselves.
  out.measured_requests = options.duration_s > 0 || schedule != nullptr
                              ? std::numeric_limits<std::size_t>::max()
                              : static_cast<std::size_t>(options.num_prompts);
  const ClientThreadsChoice loops = client_threads_of(options, plan, prepared, point);
  out.client_threads = loops.loops;
  out.client_threads_reason = loops.reason;
  out.client_threads_auto = !options.client_threads.has_value();
  out.preconnect = preconnect_count(options, point, schedule);
  if (options.shard_count > 1) {
    // Shard I sends requests k with k mod N == I of the one schedule every shard builds, with
    // its share of the concurrency: together, the load of a single process.
    out.shard_index = static_cast<std::size_t>(options.shard_index);
    out.shard_count = static_cast<std::size_t>(options.shard_count);
    out.engine.concurrency = shard_share(point.concurrency, out.shard_count, out.shard_index);
    out.preconnect = shard_share(out.preconnect, out.shard_count, out.shard_index);
  }
  // --start-at holds the run's first request: the first point's (stream 0), warm-up included.
  if (point.prompt_stream == 0) out.start_at_unix_ns = options.start_at_unix_ns;
  for (const std::string& base_url : prepared.target.base_urls) {
    out.preconnect_urls.push_back(models_url(base_url));
  }
  if (out.preconnect_urls.empty()) {
    out.preconnect_urls.push_back(models_url(prepared.target.base_url));
  }
  // A shard's steady state is judged against its own share; the merge adds the shares up.
  out.summary.target_in_flight = schedule != nullptr ? 0 : out.engine.concurrency;
  out.summary.slo = options.goodput;
  out.summary.sample_budget = options.latency_sample_budget;
  return out;
}

std::int64_t shard_share(std::int64_t total, std::size_t shards, std::size_t shard) {
  const auto parts = static_cast<std::int64_t>(std::max<std::size_t>(1, shards));
  const auto index = static_cast<std::int64_t>(shard);
  return total / parts + (index < total % parts ? 1 : 0);
}

report::RunContext point_context(const cli::RunOptions& options, const RunPlan& plan,
                                 const PreparedRun& prepared, const LoadPoint& point) {
  report::RunContext context;
  context.base_url = prepared.target.shown_base_url;
  context.embedded_server = prepared.target.embedded != nullptr;
  if (context.embedded_server) context.simulator = sim::settings_json(options.sim);
  context.answer_check = prepared.answer_check;
  context.endpoint = std::string(protocol::endpoint_name(options.endpoint));
  context.model = prepared.request.model;
  context.concurrency = point.concurrency;
  // An open loop (a rate, a ramp, a trace) without --concurrency has no cap: its 65536 slots
  // are the engine's default, never a limit anyone chose, so the results say none (null, as
  // vLLM writes it).
  const bool open_loop = std::isfinite(point.rate_per_s) ||
                         options.ramp_up_strategy != schedule::RampStrategy::none ||
                         options.dataset.kind == workload::DatasetKind::trace;
  if (open_loop && !options.concurrency_given &&
      point.concurrency == cli::kOpenLoopDefaultCap) {
    context.concurrency = std::nullopt;
  } else if (options.shard_count > 1) {  // the shard's own share: the merge adds them up
    context.concurrency = shard_share(point.concurrency, static_cast<std::size_t>(options.shard_count),
                                      static_cast<std::size_t>(options.shard_index));
  }
  context.request_rate = point.rate_per_s;
  context.ramp_up_strategy = std::string(schedule::ramp_strategy_name(options.ramp_up_strategy));
  context.ramp_up_start_rps = options.ramp_up_start_rps;
  context.ramp_up_end_rps = options.ramp_up_end_rps;
  context.num_prompts = options.num_prompts;
  context.input_len = options.input_len;
  if (lengths_in_tokens(options, prepared)) context.input_len_unit = "tokens";
  context.output_len = plan.output_len;
  // Shared-prefix groups, and a Mooncake trace's repeated hash-id blocks, share prefixes on
  // purpose.
  context.prompts_share_prefixes =
      prepared.prompts != nullptr ? prepared.prompts->shares_prefixes()
                                  : options.dataset.kind == workload::DatasetKind::shared_prefix;
  context.prompts_reused = options.reuse_prompts;
  context.prompts_from_trace = options.dataset.kind == workload::DatasetKind::trace;
  context.provenance = results::provenance_to_json(this_build_and_host());
  context.config = cli::options_to_json(options);
  context.config["base_url"] = prepared.target.shown_base_url;
  // Several servers: each one's root as shown, and how the requests were spread over them.
  json base_urls = json::array();
  for (const std::string& url : prepared.target.base_urls) {
    base_urls.push_back(util::url_without_password(url));
  }
  context.config["base_urls"] = std::move(base_urls);
  context.config["server_weights"] =
      options.server_weights.empty() ? json(nullptr) : json(options.server_weights);
  context.config["model"] = prepared.request.model;
  context.config["output_len"] = plan.output_len;
  // A replayed trace: the rows its arrivals came from (warm-up included).
  const auto offsets =
      prepared.prompts != nullptr ? prepared.prompts->arrival_offsets_ns() : nullptr;
  if (offsets != nullptr) context.config["trace_rows"] = offsets->size();
  // --server-metrics: the URLs scraped, never with their passwords.
  json scraped = nullptr;
  if (options.server_metrics) {
    scraped = json::array();
    for (const std::string& url :
         server_metrics_urls(options.server_metrics_urls, prepared.target.base_urls)) {
      scraped.push_back(util::url_without_password(url));
    }
  }
  context.config["server_metrics"] = scraped;
  context.config["server_metrics_interval_s"] = options.server_metrics_interval_s;
  if (options.multi_turn.enabled) {
    context.config[results::key::multi_turn] =
        workload::multi_turn_options_json(options.multi_turn);
  }
  return context;
}

LoadPoint repeat_of(const LoadPoint& point, std::size_t repeat, std::size_t points) {
  LoadPoint out = point;
  out.repeat = repeat;
  out.prompt_stream = point.prompt_stream + repeat * points;
  return out;
}

json point_label(const RunPlan& plan, const LoadPoint& point) {
  json label = json::object();
  if (plan.sweep_variable == "request_rate") {
    label["request_rate"] = results::rate_to_json(point.rate_per_s);
  } else if (plan.sweep_variable == "concurrency") {
    label["concurrency"] = point.concurrency;
  }
  if (plan.repeats > 1) label["repeat"] = point.repeat + 1;
  return label;
}

std::string point_label_text(const RunPlan& plan, const LoadPoint& point) {
  std::string label;
  if (plan.sweep_variable == "request_rate") {
    label = "rate=" + results::value_label(point.rate_per_s);
  } else if (plan.sweep_variable == "concurrency") {
    label = fmt::format("c={}", point.concurrency);
  }
  if (plan.repeats > 1) {
    label += fmt::format("{}repeat {}/{}", label.empty() ? "" : " ", point.repeat + 1,
                         plan.repeats);
  }
  return label;
}

}  // namespace bench::app
