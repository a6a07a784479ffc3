#include "bench/cli/run_flags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/dialect.hpp"
#include "bench/cli/header_line.hpp"
#include "bench/cli/image_flags.hpp"
#include "bench/cli/live_flags.hpp"
#include "bench/cli/multi_turn_flags.hpp"
#include "bench/cli/number_checks.hpp"
#include "bench/cli/output_paths.hpp"
#include "bench/cli/prefix_share_flag.hpp"
#include "bench/cli/run_flag_groups.hpp"
#include "bench/cli/server_flags.hpp"
#include "bench/cli/shard_flags.hpp"
#include "bench/cli/sim_flags.hpp"
#include "bench/cli/values.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/util/clock.hpp"
#include "bench/workload/agent_block_text.hpp"

namespace bench::cli {

namespace {

std::optional<std::string> environment_variable(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
}

bool has_crlf(const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; }

// Keys of --extra-body that would break the answers bench reads or the figures it reports.
// bench reads an answer as it asked for it (an event stream, or one JSON object with
// --no-stream), so "stream" is its own; with several choices ("n" > 1) the chunks of different
// answers interleave, so TTFT, ITL and the token counts would mix them.
void check_extra_body(const nlohmann::json& body, bool no_stream) {
  if (body.contains("stream") && body["stream"] != !no_stream) {
    throw UsageError(fmt::format(
        "--extra-body: \"stream\": {} is not supported: bench sends \"stream\": {} and reads "
        "the answer so (--no-stream sends false)",
        body["stream"].dump(), no_stream ? "false" : "true"));
  }
  for (const char* key : {"n", "best_of"}) {
    if (body.contains(key) && body[key] != 1) {
      throw UsageError(
          fmt::format("--extra-body: \"{}\": {} is not supported: bench measures "
                      "one choice per request",
                      key, body[key].dump()));
    }
  }
}

// The --sim-* flags shape the embedded server, which a run against --base-url does not start.
void refuse_sim_flags_with_base_url(const CLI::App& app, const RunOptions& run) {
  if (run.base_urls.empty()) return;
  for (const CLI::Option* option : app.get_options()) {
    const std::string name = option->get_name();
    if (name.rfind("--sim-", 0) == 0 && option->count() > 0) {
      throw UsageError(fmt::format("{}: applies to the embedded server, not to --base-url {}", name,
                                   run.base_urls.front()));
    }
  }
}

// Checks that CLI11's declarative validators cannot express.
void validate_run(RunOptions& run) {
  // A hostile or broken server can send endless lines: the caps keep one request's memory
  // bounded (the response cap must leave room for at least one line).
  if (run.max_line_bytes > run.max_response_bytes) {
    throw UsageError(fmt::format("--max-line-bytes: {} is larger than --max-response-bytes ({})",
                                 run.max_line_bytes, run.max_response_bytes));
  }
  if (!run.extra_body.empty()) {
    const nlohmann::json parsed = nlohmann::json::parse(run.extra_body, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      throw UsageError(fmt::format("--extra-body: '{}' is not a JSON object", run.extra_body));
    }
    check_extra_body(parsed, run.no_stream);
  }
  // vLLM's KEY=VALUE as 'KEY: VALUE'
  for (std::string& header : run.headers) header = checked_header_line(header);
  if (has_crlf(run.api_key)) {
    throw UsageError("--api-key: the key may not contain CR or LF characters");
  }
  if (has_crlf(run.model)) throw UsageError("--model: the name may not contain CR or LF");
  if (!run.output.output_file.empty()) check_output_path("--output-file", run.output.output_file);
  if (!run.output.html_path.empty()) check_output_path("--html", run.output.html_path);
  if (!run.output.save_requests.empty()) {
    check_output_path("--save-requests", run.output.save_requests);
  }
  if (!run.sim.trace_path.empty()) check_output_path("--sim-trace", run.sim.trace_path);
}

// How the client sends and reads: time limits, sample budget, event loops, connections, the
// limits on what a server may send, Ctrl-C's grace, stderr's notes.
void add_client_flags(CLI::App& app, RunOptions& run) {
  app.add_option("--latency-sample-budget", run.latency_sample_budget,
                 "Raw latency values kept, all distributions together (8 bytes each); past it, "
                 "percentiles come from histograms within 0.049%")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--request-timeout", run.request_timeout_s, "Whole-request time limit, seconds")
      ->check(positive_number())
      ->capture_default_str();
  app.add_option("--connect-timeout", run.connect_timeout_s, "Connection time limit, seconds")
      ->check(positive_number())
      ->capture_default_str();
  app.add_option("--ttft-timeout", run.ttft_timeout_s,
                 "Fail a request with no generated text after this many seconds (0 = no limit)")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_option("--stall-timeout", run.stall_timeout_s,
                 "Fail a request whose stream goes silent this many seconds after its first "
                 "byte, as a stall (0 = no limit); the time to the first token is not limited")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_option("--ready-timeout,--ready-check-timeout-sec", run.ready_timeout_s,
                 "Wait up to this many seconds for a server that is not ready yet (refuses "
                 "connections, or answers 502/503/504 while loading), saying so every few "
                 "seconds (0 = never wait)")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_option("--startup-timeout", run.startup_timeout_s,
                 "End the run (exit 3) when a request made before the measured phase (model, "
                 "server identity, tokenizer, probes) gets no byte for this many seconds: a "
                 "hung server (0 = no limit)")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_option("--unreachable-timeout", run.unreachable_timeout_s,
                 "End the run (exit 3, results so far kept) once no connection to the server "
                 "could be made for this many seconds (0 = never)")
      ->check(non_negative_number())
      ->capture_default_str();
  add_choice(app, "--per-chunk-usage", run.server.per_chunk_usage,
             {PerChunkUsage::auto_detect, PerChunkUsage::on, PerChunkUsage::off},
             per_chunk_usage_name,
             "Ask for usage on every chunk (vLLM continuous_usage_stats) to know each chunk's "
             "token count exactly: auto (probe the server first), on, off");
  app.add_option_function<std::string>(
         "--client-threads",
         [&run](const std::string& value) {
           run.client_threads =
               value == "auto" ? std::nullopt : std::optional<std::size_t>(std::stoul(value));
         },
         "Event loops sending requests (each its own curl multi handle): auto (as many as each "
         "point's expected load needs and the usable cores allow, a core kept for the embedded "
         "server; the start-up line and the results say how many and why), or N")
      ->check(CLI::IsMember({"auto"}) | CLI::Range(std::size_t{1}, std::size_t{256}))
      ->default_str("auto")
      ->option_text("auto|N");
  app.add_option("--preconnect", run.preconnect,
                 "Connections to open before the warm-up, so the measured requests do not pay "
                 "for connecting and the server sees no connection storm. Default: the "
                 "concurrency (closed loop) or one second of arrivals (open loop); 0: none")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000}));
  app.add_option("--max-line-bytes", run.max_line_bytes,
                 "Longest SSE line (and event) accepted; a longer one fails the request as "
                 "malformed_sse, never the process")
      ->check(CLI::Range(std::int64_t{256}, std::int64_t{1} << 40))
      ->capture_default_str();
  app.add_option("--max-response-bytes", run.max_response_bytes,
                 "Largest response accepted; a larger one fails the request as malformed_sse")
      ->check(CLI::Range(std::int64_t{1024}, std::int64_t{1} << 50))
      ->capture_default_str();
  app.add_option("--grace", run.grace_s,
                 "After Ctrl-C/SIGTERM: seconds in-flight requests may finish before they are "
                 "cancelled; the results are then written, marked interrupted. Another signal "
                 "within a second counts as the same one; a later one cancels them at once")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_flag("--quiet,-q", run.output.quiet, "No progress or notes on stderr");
  app.add_flag("--disable-tqdm", run.output.no_progress,
               "No progress line on stderr; the notes and warnings stay (vLLM's and SGLang's "
               "flag for their progress bar)");
}

// --endpoint: a kind from the endpoint table (chat, completions, responses), or its path as
// vLLM's --endpoint writes it (/v1/completions), which is then kept for the dialect (a path is
// vLLM's sign, cli/dialect.hpp).
void add_endpoint_flag(CLI::App& app, protocol::Endpoint& endpoint, std::string& path_given) {
  std::vector<std::string> words;
  std::string kinds;  // --help's placeholder: the kinds alone, the paths said in the help
  std::string help = "API to call: ";
  const auto rows = protocol::endpoints();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    words.emplace_back(rows[i].name);
    words.emplace_back(rows[i].path);
    kinds += (i > 0 ? "|" : "") + std::string(rows[i].name);
    if (i > 0) help += i + 1 == rows.size() ? " or " : ", ";
    help += rows[i].help;
  }
  help += "; or its path, as vLLM's --endpoint (/v1/completions)";
  app.add_option_function<std::string>(
         "--endpoint",
         [&endpoint, &path_given](const std::string& word) {
           for (const protocol::EndpointSpec& spec : protocol::endpoints()) {
             if (word == spec.name || word == spec.path) endpoint = spec.id;
           }
           if (word.starts_with("/")) path_given = word;
         },
         help)
      ->check(CLI::IsMember(words))
      ->default_str(std::string(protocol::endpoint_name(endpoint)))
      ->option_text(kinds);
}

// The group of the server flags, added in three places (target, --header, the side routes).
constexpr const char* kServerGroup = "Server";

// The server bench talks to and how: its URLs, endpoint, model and credentials.
void add_target_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  app.add_option("--base-url", run.base_urls,
                 "Server root URL, e.g. http://127.0.0.1:8000 (env OPENAI_BASE_URL). "
                 "Repeat it for data-parallel replicas with no router: requests are spread "
                 "round robin (or by --server-weights) and every figure is also reported per "
                 "server. Absent: bench starts its embedded simulated server on a free "
                 "loopback port")
      ->envname("OPENAI_BASE_URL")
      ->allow_extra_args(false)
      ->option_text("URL");
  app.add_option("--server-weights", raw.server_weights,
                 "With several --base-url: one whole number 1..1000 per server, in their order, "
                 "e.g. 3,1: the first is sent 3 of every 4 requests (by request index, so every "
                 "shard agrees)");
  add_endpoint_flag(app, run.endpoint, raw.peer.endpoint_path);
  app.add_option("--model", run.model, "Model name to send (default: first id of GET /v1/models)");
  app.add_option("--api-key", run.api_key,
                 "API key, sent as 'Authorization: Bearer KEY' ('x-api-key: KEY' to --endpoint "
                 "messages; env "
                 "OPENAI_API_KEY); never printed")
      ->envname("OPENAI_API_KEY");
}

// What bench asks of the server beside the load: its cache flushed, the answer check, its
// /metrics; and TLS.
void add_server_side_flags(CLI::App& app, RunOptions& run) {
  app.add_flag("--flush-cache", run.server.flush_cache,
               "Empty the server's prefix cache before each run or sweep point (SGLang "
               "/flush_cache, vLLM /reset_prefix_cache, llama.cpp cache_prompt false)");
  app.add_flag_callback(
      "--no-answer-check", [&run] { run.server.answer_check = false; },
      "Do not send the answer check: a few short known-answer prompts (\"Count from 1 "
      "to 10.\") at temperature 0 to each server before the run, which warn when the "
      "answers do not look like a model's work (random weights, a broken server). "
      "Implausible answers never fail the run; a server that answers none of them (each "
      "failed with a 5xx or in transport) ends it before the measured phase (exit 3). Its "
      "requests are in no figure");
  app.add_option("--server-metrics", run.server.metrics_urls,
                 "Read the server's Prometheus metrics (default URL: <base-url>/metrics) before "
                 "and after each run or point, and hold its token counters against bench's; "
                 "repeat it for several servers behind a router (their counts are added up)")
      ->expected(0, 1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--server-metrics-interval", run.server.metrics_interval_s,
                 "With --server-metrics: read the server's gauges (running and waiting requests, "
                 "KV-cache usage) this often while a point runs, seconds, on a thread of their "
                 "own; 0 = only before and after it")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_flag("--insecure", run.insecure, "Do not verify TLS certificates");
  app.add_option("--cacert", run.cacert, "CA certificate bundle for TLS")->check(CLI::ExistingFile);
}

}  // namespace

// --help lists the groups in the order their first flag is added; a flag that names its own
// group (multi-turn, tools, images, the embedded server's) keeps it.
void setup_run_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  {
    const FlagGroup group(app, kServerGroup);
    add_target_flags(app, run, raw);
  }
  {
    const FlagGroup group(app, "Load");
    add_load_flags(app, run, raw);
  }
  {
    const FlagGroup group(app, "Workload");
    add_workload_flags(app, run, raw);
  }
  {
    const FlagGroup group(app, kServerGroup);
    app.add_option("--header", run.headers,
                   "Extra request header 'Name: value' (or vLLM's KEY=VALUE; repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  {
    const FlagGroup group(app, "Results, SLOs and gates");
    add_results_flags(app, run, raw);
    add_peer_result_flags(app, run.output.peer_results);
  }
  {
    const FlagGroup group(app, kServerGroup);
    add_server_side_flags(app, run);
  }
  {
    const FlagGroup group(app, "Client: timeouts, limits, threads");
    add_client_flags(app, run);
  }
  add_sim_flags(app, run.sim, "--sim-");
  {
    const FlagGroup group(app, "Shards (one benchmark from several processes)");
    setup_shard_flags(app, raw);
  }
  {
    const FlagGroup group(app, "Live metrics and tracing");
    setup_live_flags(app, run);
  }
  add_peer_flags(app, raw.peer, run.num_prompts);
}

namespace {

// Refused before anything is sent: token ids only fit /v1/completions' prompt, and the template
// is only counted in when a tokenizer measures it on a chat endpoint.
void check_token_flags(const RunOptions& run) {
  const bool chat = protocol::takes_messages(run.endpoint);
  if (run.dataset.kind == workload::DatasetKind::random_ids &&
      !protocol::endpoint_spec(run.endpoint).token_ids) {
    throw UsageError(
        "--dataset random-ids: token ids are sent as /v1/completions' prompt; add "
        "--endpoint completions");
  }
  const bool tokenizer_given = !run.tokenizer.empty() && run.tokenizer != "words";
  if (run.input_len_includes_template && (!tokenizer_given || !chat)) {
    throw UsageError("--input-len-includes-template: needs --tokenizer and the chat endpoint");
  }
}

// A trace brings its own arrivals and lengths: the flags that would set them are refused (before
// any other check of theirs, so the message says why), and the trace's flags need a trace.
void refuse_trace_conflicts(const CLI::App& app, const RunOptions& run) {
  const bool trace = run.dataset.kind == workload::DatasetKind::trace;
  for (const char* flag : {"--trace-format", "--trace-speed", "--trace-window", "--trace-model",
                           "--trace-log-type", "--trace-max-gap", "--trace-start"}) {
    if (!trace && app.count(flag) > 0) {
      throw UsageError(fmt::format("{}: only with --dataset trace", flag));
    }
  }
  if (!trace) return;
  // Agent sessions end when their trees do, so a time bound may cut them short, as any run's.
  const bool sessions = workload::replays_agent_sessions(run.dataset);
  for (const char* flag :
       {"--request-rate", "--burstiness", "--constant-rate", "--ramp-up-strategy",
        "--ramp-up-start-rps", "--ramp-up-end-rps", "--duration", "--duration-hard",
        "--warmup-duration", "--reuse-prompts", "--input-len", "--output-len", "--range-ratio"}) {
    const std::string_view name = flag;
    if (sessions && (name == "--duration" || name == "--duration-hard")) continue;
    if (app.count(flag) > 0) {
      throw UsageError(
          fmt::format("{}: not with --dataset trace, which replays the trace's own "
                      "arrivals and lengths (see --trace-speed, --trace-window, "
                      "--num-prompts)",
                      flag));
    }
  }
}

// --dataset trace: its format and window (its --concurrency is a cap only, none by default, as
// with --request-rate: finish_load_flags).
void finish_trace_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  if (run.dataset.kind != workload::DatasetKind::trace) return;
  if (app.count("--trace-format") == 0) {
    throw UsageError("--dataset trace: needs --trace-format mooncake|azure|burstgpt|weka");
  }
  const bool sessions = workload::replays_agent_sessions(run.dataset);
  if (sessions && run.multi_turn.enabled) {
    throw UsageError(
        "--multi-turn: not with --trace-format weka (its sessions are the trace's own; "
        "--concurrency sets how many replay at once)");
  }
  if (sessions && app.count("--trace-window") > 0) {
    throw UsageError("--trace-window: not with --trace-format weka (its sessions replay whole)");
  }
  for (const char* flag : {"--trace-max-gap", "--trace-start"}) {
    if (!sessions && app.count(flag) > 0) {
      throw UsageError(fmt::format("{}: only with --trace-format weka (agent sessions)", flag));
    }
  }
  if (run.dataset.trace.format != workload::TraceFormat::burstgpt &&
      app.count("--trace-model") + app.count("--trace-log-type") > 0) {
    throw UsageError(
        fmt::format("--trace-model, --trace-log-type: filter BurstGPT's columns; "
                    "--trace-format {} has none",
                    workload::trace_format_name(run.dataset.trace.format)));
  }
  if (!raw.trace_window.empty()) {
    run.dataset.trace.window = workload::parse_trace_window(raw.trace_window);
    if (!run.dataset.trace.window) {
      throw UsageError(
          fmt::format("--trace-window: '{}' is not START-END in seconds with "
                      "0 <= START < END (e.g. 60-120)",
                      raw.trace_window));
    }
  }
}

// --trace-format weka replays recorded sessions: a multi-turn run whose turns, gaps and
// lengths the trace gives, so the flags that would set them are refused. Its lengths are a
// tokenizer file's tokens (given, or found as for every dataset) or words; a request's "in" is
// its messages' content, so the template is never counted in.
void finish_agent_trace_flags(RunOptions& run) {
  if (!workload::replays_agent_sessions(run.dataset)) return;
  if (run.tokenizer == "server") {
    throw UsageError(
        fmt::format("--tokenizer server: not with --trace-format weka ({}); give a "
                    "tokenizer.json or a Hugging Face repo id",
                    workload::kNoServerTokenizeReason));
  }
  if (run.input_len_includes_template) {
    throw UsageError(
        "--input-len-includes-template: not with --trace-format weka (a request's recorded "
        "\"in\" is its messages' content; the server's prompt_tokens show the template's "
        "beside it)");
  }
  run.multi_turn.enabled = true;
  // A replay replays the recorded output lengths: max_tokens is each request's "out", and the
  // server is asked to generate all of it (as AIPerf's trace replays do).
  run.ignore_eos = true;
}

// A file dataset needs its file, and only a file dataset reads one.
void finish_dataset_flags(const CLI::App& app, RunOptions& run) {
  const workload::DatasetKind dataset = run.dataset.kind;
  const bool file_dataset = dataset == workload::DatasetKind::sharegpt ||
                            dataset == workload::DatasetKind::jsonl ||
                            dataset == workload::DatasetKind::trace;
  if (file_dataset && run.dataset.path.empty()) {
    throw UsageError(fmt::format("--dataset {}: needs --dataset-path FILE",
                                 workload::dataset_kind_name(dataset)));
  }
  if (!file_dataset && !run.dataset.path.empty()) {
    throw UsageError(fmt::format("--dataset-path: the {} dataset reads no file",
                                 workload::dataset_kind_name(dataset)));
  }
  std::error_code error;
  if (!workload::replays_agent_sessions(run.dataset) &&
      std::filesystem::is_directory(run.dataset.path, error)) {
    throw UsageError(fmt::format(
        "--dataset-path: {} is a directory; only --trace-format weka reads a directory (of traces)",
        run.dataset.path));
  }
  check_token_flags(run);
  // SGLang's generated-shared-prefix sends every question of every group once.
  run.num_prompts_given = app.count("--num-prompts") + app.count("--num-prompt") > 0;
  if (dataset == workload::DatasetKind::shared_prefix && !run.num_prompts_given) {
    run.num_prompts = run.dataset.prefix_groups * run.dataset.questions_per_group;
  }
}

void check_ramp(const CLI::App& app, RunOptions& run) {
  if (app.count("--request-rate") > 0) {
    throw UsageError("--ramp-up-strategy and --request-rate: the ramp sets the rate (as vLLM)");
  }
  if (run.ramp_up_end_rps <= 0 || run.ramp_up_start_rps > run.ramp_up_end_rps ||
      (run.ramp_up_strategy == schedule::RampStrategy::exponential && run.ramp_up_start_rps <= 0)) {
    throw UsageError(fmt::format(
        "--ramp-up-start-rps {} / --ramp-up-end-rps {}: need 0 <= start <= end, end > 0 (and "
        "start > 0 for exponential)",
        run.ramp_up_start_rps, run.ramp_up_end_rps));
  }
}

// The load: concurrency and rate (one of them may be a sweep), arrivals, the ramp; an open loop's
// --concurrency a cap, none unless given (a rate, a ramp or a trace's arrivals: any_open_loop).
void finish_load_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  run.concurrency = parse_count_list("--concurrency", raw.concurrency, 1, 1'000'000);
  run.concurrency_given = app.count("--concurrency") + app.count("--max-concurrency") > 0;
  run.request_rates = parse_rate_list("--request-rate", raw.request_rate);
  if (run.concurrency.size() > 1 && run.request_rates.size() > 1) {
    throw UsageError(
        "--concurrency and --request-rate: sweep one of them at a time (a list for "
        "one, a single value for the other)");
  }
  if (run.constant_rate && run.burstiness != 1.0) {
    throw UsageError("--constant-rate and --burstiness: fixed gaps have no burstiness");
  }
  if (run.ramp_up_strategy != schedule::RampStrategy::none) check_ramp(app, run);
  if (any_open_loop(run) && !run.concurrency_given) run.concurrency = {kOpenLoopDefaultCap};
}

void finish_duration_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  if (!raw.duration.empty()) run.duration_s = parse_duration_s("--duration", raw.duration);
  if (run.duration_hard && raw.duration.empty()) {
    throw UsageError("--duration-hard: needs --duration");
  }
  if (!raw.warmup_duration.empty()) {
    run.warmup_duration_s = parse_duration_s("--warmup-duration", raw.warmup_duration);
    if (app.count("--warmup-requests") > 0) {
      throw UsageError("--warmup-duration and --warmup-requests: warm up by time or by count");
    }
  }
}

// A price is per GPU-hour: without the GPU count no cost can be known, so it is refused before
// anything is sent rather than written as unknown on every point.
void check_cost_flags(const RunOptions& run) {
  if (run.gpu_hour_price && !run.gpus) {
    throw UsageError("--gpu-hour-price: needs --gpus N (the price is per GPU-hour)");
  }
}

// --goodput and the gates, checked now, so a misspelt metric stops the run before anything is
// sent.
void finish_gate_flags(RunOptions& run, const RawRunFlags& raw) {
  if (!raw.goodput.empty()) run.goodput = parse_goodput("--goodput", raw.goodput);
  auto add_gate = [&run](gate::GateKind kind, const std::string& spec) {
    auto parsed = gate::parse_gate(kind, spec);
    if (const auto* error = std::get_if<gate::GateError>(&parsed)) throw UsageError(error->message);
    run.output.gates.push_back(std::get<gate::Gate>(parsed));
  };
  for (const std::string& spec : raw.fail_under) add_gate(gate::GateKind::fail_under, spec);
  for (const std::string& spec : raw.fail_over) add_gate(gate::GateKind::fail_over, spec);
  if (!raw.max_error_rate.empty()) {
    add_gate(gate::GateKind::max_error_rate, raw.max_error_rate);
    run.output.max_error_rate_given = true;
  }
  for (const gate::Gate& gate : run.output.gates) {
    if (const auto refusal = gate::check_produced(gate::flag_of(gate.kind), gate.metric,
                                                  protocol::endpoint_spec(run.endpoint).figures,
                                                  protocol::endpoint_name(run.endpoint))) {
      throw UsageError(*refusal);
    }
    if ((gate.metric == "goodput" || gate.metric == "good_requests") && !run.goodput.any()) {
      throw UsageError(fmt::format("{}: '{}' needs --goodput (which SLOs make a request good)",
                                   gate::flag_of(gate.kind), gate.spec));
    }
  }
}

}  // namespace

void finish_run_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& given_raw) {
  RawRunFlags raw = given_raw;
  read_peer_flags(app, run, raw);  // first: it sets what the checks below read
  refuse_trace_conflicts(app, run);
  finish_load_flags(app, run, raw);
  run.seed_given = app.count("--seed") > 0;
  run.server.metrics = app.count("--server-metrics") > 0;
  // 32 bits: exact in every JSON reader (jq's numbers are doubles), so a run can be replayed.
  if (!run.seed_given) run.seed = std::random_device{}();
  finish_dataset_flags(app, run);
  finish_prefix_share_flag(app, run, raw.prefix_share);
  finish_trace_flags(app, run, raw);
  finish_duration_flags(app, run, raw);
  finish_multi_turn_flags(app, run, raw.multi_turn);
  finish_agent_trace_flags(run);
  finish_tool_flags(run, raw.tools);
  finish_image_flags(app, run, raw.images);
  finish_gate_flags(run, raw);
  check_cost_flags(run);
  finish_server_flags(run, raw.server_weights);
  validate_run(run);
  refuse_sim_flags_with_base_url(app, run);
  finish_shard_flags(run, raw, environment_variable, wall_clock_ns());
  finish_live_flags(app, run);
}

}  // namespace bench::cli
