// The point stages' plans, from the run's plan alone: a point's open-loop schedule, what
// run_point() takes, the report's context and the point's labels.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "bench/app/plan/provenance.hpp"
#include "bench/app/plan/run_plan.hpp"
#include "bench/app/server/server_metrics_scrape.hpp"
#include "bench/app/server/server_tokenizer.hpp"
#include "bench/results/format.hpp"
#include "bench/sim/sim_options.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/share.hpp"

namespace bench::app {

using nlohmann::json;

namespace {

// The longest wait of a closed loop's slot after failed connections: a dead server costs each
// slot one request a second, and a restarted one is found within a second.
constexpr std::int64_t kConnectBackoffMaxMs = 1000;

}  // namespace

bool open_loop(const RunPlan& plan, const LoadPoint& point) {
  return schedule::is_open_loop(point.rate_per_s, plan.ramp.strategy,
                                workload::brings_arrivals(plan.dataset));
}

schedule::OpenLoopPlan open_loop_plan(const RunPlan& plan, double rate_per_s) {
  schedule::OpenLoopPlan out = plan.arrivals;
  out.measured.rate_per_s = rate_per_s;
  return out;
}

namespace {

// A point without --concurrency whose load flag set no cap (a rate, a ramp, a trace, or a rate
// sweep's "inf" point): its 65536 slots are the engine's default, never a limit anyone chose, so
// the results say none (null, as vLLM writes it), and its steady state is judged against the
// peak in flight, as an open loop's is.
bool uncapped(const RunPlan& plan, const LoadPoint& point) {
  return !plan.concurrency_given && point.concurrency == cli::kOpenLoopDefaultCap;
}

// How many connections a point opens before its epoch: --preconnect, or what the point will
// hold open at once: a closed loop its concurrency, within its requests (a rate sweep's "inf"
// point without --concurrency has the engine's 65536 slots, and 10 requests open 10); an open
// loop one second of arrivals (a request lasting longer than that makes more), within its
// concurrency cap and its requests.
std::int64_t preconnect_count(const RunPlan& plan, const LoadPoint& point,
                              const schedule::OpenLoopSchedule* schedule) {
  if (plan.preconnect >= 0) return plan.preconnect;
  if (!open_loop(plan, point)) {
    const std::int64_t requests =
        plan.bounds.counted() ? std::max(plan.bounds.num_prompts, plan.bounds.warmup_requests)
                              : point.concurrency;
    return std::max<std::int64_t>(1, std::min(point.concurrency, requests));
  }
  const double per_second = std::isfinite(point.rate_per_s) ? std::ceil(point.rate_per_s) : 1.0;
  const auto arrivals = static_cast<std::int64_t>(schedule->size());
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(per_second), 1,
                                  std::max<std::int64_t>(1, std::min(point.concurrency, arrivals)));
}

}  // namespace

bool lengths_in_tokens(const RunPlan& plan, const PreparedRun& prepared) {
  const workload::DatasetKind kind = plan.dataset.kind;
  if (kind == workload::DatasetKind::random_ids) return true;
  return prepared.tokenizer != nullptr && kind != workload::DatasetKind::shared_prefix;
}

std::string words_reason(const RunPlan& plan, const PreparedRun& prepared) {
  if (lengths_in_tokens(plan, prepared)) return "";
  if (!prepared.words_reason.empty()) return prepared.words_reason;
  return "shared-prefix counts words";  // the one dataset that counts words with a tokenizer
}

namespace {

// --multi-turn: --num-prompts sessions (unbounded with --duration alone), --sessions of them open
// at once (the point's concurrency by default), each turn's text from the point's prompt stream.
void set_sessions(const RunPlan& plan, const LoadPoint& point,
                  const tokenizer::Tokenizer* tokenizer, DriverPlan& driver) {
  const workload::MultiTurnOptions& multi_turn = plan.multi_turn;
  SessionPlan sessions;
  if (plan.bounds.counted()) {
    sessions.end = static_cast<std::uint64_t>(plan.bounds.num_prompts);
  }
  const std::int64_t open = shard_share(multi_turn.sessions.value_or(point.concurrency),
                                        plan.shard.count, plan.shard.index);
  sessions.open_at_once = static_cast<std::size_t>(std::max<std::int64_t>(1, open));
  sessions.think_time = multi_turn.think_time;
  sessions.seed = plan.seed;
  const workload::PromptSource* source = driver.bodies.prompts.source;
  const std::uint64_t stream = point.prompt_stream;
  // An agent session takes its task alone from the prompts; its later turns are made as it goes.
  const std::optional<std::int64_t> turns =
      multi_turn.agent() ? std::optional<std::int64_t>(1) : multi_turn.turns;
  const bool conversations = plan.dataset.kind == workload::DatasetKind::sharegpt;
  if (multi_turn.agent()) {
    SessionPlan::Agent agent;
    agent.text.seed = plan.seed;
    agent.text.stream = stream;
    agent.text.tool_result_words = *multi_turn.tool_result_len;
    agent.context_tokens = multi_turn.session_context;
    agent.max_turns = multi_turn.turns;
    agent.fan_out = static_cast<std::size_t>(multi_turn.fan_out.value_or(1));
    sessions.agent = agent;
  }
  if (auto traces = source->agent_traces()) {
    // --trace-format weka: recorded session trees, one a lane (trace_tree_scheduler.hpp).
    const workload::TraceOptions& trace = plan.dataset.trace;
    // The run's tokenizer (a file: the server's /tokenize is never used for weka, see
    // tokenizer_choice.cpp) makes each block exactly block_size tokens; its "in" is content, so
    // no template share is taken off.
    sessions.trees = SessionPlan::Trees{
        std::move(traces),     trace.max_gap_s, trace.speed,
        trace.start_at_random, stream,          workload::TokenLengths{tokenizer, 0}};
    // Without --concurrency, every trace replays at once (one lane each), not 65536 lanes.
    const std::int64_t lanes = uncapped(plan, point)
                                   ? static_cast<std::int64_t>(sessions.trees->traces->size())
                                   : point.concurrency;
    sessions.open_at_once = static_cast<std::size_t>(
        std::max<std::int64_t>(1, shard_share(lanes, plan.shard.count, plan.shard.index)));
  }
  sessions.turns_of = [source, stream, turns, conversations](std::uint64_t session) {
    return workload::session_turns(*source, stream, session, turns, conversations);
  };
  driver.sessions = std::move(sessions);
  driver.session_header = multi_turn.session_header;
}

}  // namespace

PointPlan point_plan(const RunPlan& plan, const PreparedRun& prepared, const LoadPoint& point,
                     const schedule::OpenLoopSchedule* schedule) {
  PointPlan out;
  DriverPlan& driver = out.driver;
  driver.target.urls = prepared.urls;
  driver.target.spread = prepared.spread.get();
  driver.target.headers = &plan.headers;
  driver.target.traceparent = plan.traceparent;
  driver.target.request = prepared.request;
  driver.target.limits = plan.limits;
  // A tokenizer file counts what a stream without usage generated, once per request at its end.
  // The server's tokenizer does not: a /tokenize round trip per request, on the event loop and
  // to the server under test, would bias what is measured, so those keep the chunk estimate.
  if (dynamic_cast<const ServerTokenizer*>(prepared.tokenizer.get()) == nullptr) {
    driver.target.output_counter = prepared.tokenizer.get();
  }
  driver.bodies.prompts = {prepared.prompts.get(), point.prompt_stream, plan.reuse_prompts_modulo};
  driver.bodies.images = plan.images;
  driver.bodies.image_nonce = plan.image_nonce;
  if (prepared.prompts != nullptr) {
    driver.bodies.largest_image_url_bytes = prepared.prompts->images().largest_request_url_bytes;
  }
  if (plan.output_len_from_extra_body) driver.bodies.output_len_override = plan.output_len;
  const bool open = open_loop(plan, point);
  if (open) {
    driver.per_prompt.schedule = schedule;
    driver.per_prompt.warmup_requests = schedule->warmup_requests();
  } else {
    driver.per_prompt.warmup_requests = static_cast<std::size_t>(plan.bounds.warmup_requests);
    driver.per_prompt.warmup_until_ns = s_to_ns_truncated(plan.bounds.warmup_duration_s);
  }
  driver.timing.measured_duration_ns = s_to_ns_truncated(plan.bounds.duration_s);
  driver.timing.cancel_at_duration_end = plan.bounds.duration_hard;
  if (plan.multi_turn.enabled) set_sessions(plan, point, prepared.tokenizer.get(), driver);
  out.engine = plan.engine;
  // A closed loop's slot waits after a failed connection (engine/connect_backoff.hpp); an open
  // loop's arrivals keep their schedule, each failing fast and counted.
  out.engine.connect_backoff_max_ms = open ? 0 : kConnectBackoffMaxMs;
  out.unreachable_timeout_ns = plan.unreachable_timeout_ns;
  // A closed loop counts its measured requests (with --duration too, whichever ends first); an
  // open loop's schedule and a time bound alone end the run themselves.
  out.measured_requests = !plan.bounds.counted() || open
                              ? std::numeric_limits<std::size_t>::max()
                              : static_cast<std::size_t>(plan.bounds.num_prompts);
  const ClientThreadsChoice loops = client_threads_of(plan, prepared, point);
  out.client_threads = loops.loops;
  out.client_threads_reason = loops.reason;
  out.client_threads_auto = !plan.client_threads.has_value();
  // Shard I sends requests k with k mod N == I of the one schedule every shard builds, with
  // its share of the concurrency: together, the load of a single process.
  out.shard_index = plan.shard.index;
  out.shard_count = plan.shard.count;
  out.engine.concurrency = shard_share(point.concurrency, plan.shard.count, plan.shard.index);
  if (driver.sessions && driver.sessions->trees) {
    // A tree's subagents take no lane: each lane may have its largest group in flight besides.
    std::size_t largest = 0;
    for (const workload::AgentTrace& trace : *driver.sessions->trees->traces) {
      largest = std::max(largest, trace.largest_group());
    }
    out.engine.concurrency =
        std::min<std::int64_t>(cli::kOpenLoopDefaultCap,
                               out.engine.concurrency * (1 + static_cast<std::int64_t>(largest)));
  }
  out.preconnect =
      shard_share(preconnect_count(plan, point, schedule), plan.shard.count, plan.shard.index);
  // --start-at holds the run's first request: the first point's (stream 0), warm-up included.
  if (point.prompt_stream == 0) out.start_at_unix_ns = plan.shard.start_at_unix_ns;
  for (const std::string& base_url : prepared.target.base_urls) {
    out.preconnect_urls.push_back(models_url(base_url));
  }
  // A shard's steady state is judged against its own share; the merge adds the shares up.
  out.summary.target_in_flight = open || uncapped(plan, point) ? 0 : out.engine.concurrency;
  out.summary.slo = plan.goodput;
  out.summary.sample_budget = plan.latency_sample_budget;
  // vLLM's --metric-percentiles, for its result file and summary block.
  const results::PeerResultOptions& peer = plan.output.peer_results;
  if (peer.writes_vllm_file() || peer.vllm_summary) {
    out.summary.asked_percentiles = peer.metric_percentiles;
  }
  return out;
}

std::int64_t shard_share(std::int64_t total, std::size_t shards, std::size_t shard) {
  const auto parts = static_cast<std::int64_t>(std::max<std::size_t>(1, shards));
  const auto index = static_cast<std::int64_t>(shard);
  return util::share_of(total, parts, index);
}

namespace {

// The point's concurrency as the results state it.
std::optional<std::int64_t> stated_concurrency(const RunPlan& plan, const LoadPoint& point) {
  if (uncapped(plan, point)) return std::nullopt;
  if (plan.shard.count > 1) {  // the shard's own share: the merge adds them up
    return shard_share(point.concurrency, plan.shard.count, plan.shard.index);
  }
  return point.concurrency;
}

// The run's config as the results record it: the options, and what preparing found (the
// servers as shown, the model, a trace's rows, the URLs scraped).
json point_config(const RunPlan& plan, const PreparedRun& prepared) {
  json config = plan.config;
  config["base_url"] = prepared.target.shown_base_url;
  // Several servers: each one's root as shown, and how the requests were spread over them.
  json base_urls = json::array();
  for (const std::string& url : prepared.target.base_urls) {
    base_urls.push_back(util::url_with_secrets_hidden(url));
  }
  config["base_urls"] = std::move(base_urls);
  config["server_weights"] =
      plan.server.weights.empty() ? json(nullptr) : json(plan.server.weights);
  config["model"] = prepared.request.model;
  config["output_len"] = plan.output_len;
  // A replayed trace: the rows its arrivals came from (warm-up included).
  const auto offsets =
      prepared.prompts != nullptr ? prepared.prompts->arrival_offsets_ns() : nullptr;
  if (offsets != nullptr) config["trace_rows"] = offsets->size();
  // A dataset's image files (jsonl "images"): the input then splits into text and images.
  if (prepared.prompts != nullptr && prepared.prompts->images().any()) {
    config[results::key::dataset_images] = prepared.prompts->images().files;
  }
  // --server-metrics: the URLs scraped, never with their passwords.
  json scraped = nullptr;
  if (plan.server.metrics) {
    scraped = json::array();
    for (const std::string& url :
         server_metrics_urls(plan.server.metrics_urls, prepared.target.base_urls)) {
      scraped.push_back(util::url_with_secrets_hidden(url));
    }
  }
  config["server_metrics"] = scraped;
  config["server_metrics_interval_s"] = plan.server.metrics_interval_s;
  if (plan.multi_turn.enabled) {
    config[results::key::multi_turn] = workload::multi_turn_options_json(plan.multi_turn);
  }
  return config;
}

}  // namespace

results::RunContext point_context(const RunPlan& plan, const PreparedRun& prepared,
                                  const LoadPoint& point) {
  results::RunContext context;
  context.base_url = prepared.target.shown_base_url;
  context.embedded_server = prepared.target.embedded != nullptr;
  if (context.embedded_server) context.simulator = sim::settings_json(plan.server.sim);
  context.answer_check = prepared.answer_check;
  context.endpoint = std::string(protocol::endpoint_name(plan.request.endpoint));
  context.model = prepared.request.model;
  context.concurrency = stated_concurrency(plan, point);
  const schedule::RampUp& ramp = plan.ramp;
  context.request_rate = point.rate_per_s;
  context.ramp_up_strategy = std::string(schedule::ramp_strategy_name(ramp.strategy));
  context.ramp_up_start_rps = ramp.start_rps;
  context.ramp_up_end_rps = ramp.end_rps;
  context.num_prompts = plan.bounds.num_prompts;
  context.input_len = plan.input_len;
  if (lengths_in_tokens(plan, prepared)) context.input_len_unit = "tokens";
  context.output_len = plan.output_len;
  // Shared-prefix groups, and a Mooncake trace's repeated hash-id blocks, share prefixes on
  // purpose. --prefix-share says it point by point, by the share asked: a point asking 0 of a
  // sweep whose other points share shares nothing.
  context.prefix_share = point.prefix_share;
  context.prompts_share_prefixes =
      !point.prefix_share &&
      (prepared.prompts != nullptr ? prepared.prompts->shares_prefixes()
                                   : plan.dataset.kind == workload::DatasetKind::shared_prefix);
  context.prompts_reused = plan.reuse_prompts;
  context.prompts_resend_history = plan.multi_turn.enabled;
  context.prompts_from_trace = plan.dataset.kind == workload::DatasetKind::trace;
  context.accelerators = plan.accelerators;
  context.provenance = results::provenance_to_json(this_build_and_host());
  context.config = point_config(plan, prepared);
  return context;
}

LoadPoint repeat_of(const LoadPoint& point, std::size_t repeat, std::size_t points) {
  LoadPoint out = point;
  out.repeat = repeat;
  out.prompt_stream = point.prompt_stream + repeat * points;
  return out;
}

json sweep_value(const RunPlan& plan, const LoadPoint& point) {
  switch (plan.sweep_variable) {
    case SweepVariable::request_rate: return results::rate_to_json(point.rate_per_s);
    case SweepVariable::concurrency: return point.concurrency;
    case SweepVariable::prefix_share: return point.prefix_share.value_or(0);
    case SweepVariable::none: break;
  }
  return nullptr;
}

json point_label(const RunPlan& plan, const LoadPoint& point) {
  json label = json::object();
  if (plan.sweep_variable != SweepVariable::none) {
    label[sweep_variable_name(plan.sweep_variable)] = sweep_value(plan, point);
  }
  if (plan.repeats > 1) label["repeat"] = point.repeat + 1;
  return label;
}

std::string point_label_text(const RunPlan& plan, const LoadPoint& point) {
  std::string label;
  if (plan.sweep_variable == SweepVariable::request_rate) {
    label = "rate=" + results::value_label(point.rate_per_s);
  } else if (plan.sweep_variable == SweepVariable::concurrency) {
    label = fmt::format("c={}", point.concurrency);
  } else if (plan.sweep_variable == SweepVariable::prefix_share) {
    label = fmt::format("prefix share={:g}", point.prefix_share.value_or(0));
  }
  if (plan.repeats > 1) {
    label +=
        fmt::format("{}repeat {}/{}", label.empty() ? "" : " ", point.repeat + 1, plan.repeats);
  }
  return label;
}

}  // namespace bench::app
