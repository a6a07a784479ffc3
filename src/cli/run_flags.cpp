#include "bench/cli/run_flags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/cli/live_flags.hpp"
#include "bench/cli/multi_turn_flags.hpp"
#include "bench/cli/number_checks.hpp"
#include "bench/cli/output_paths.hpp"
#include "bench/cli/server_flags.hpp"
#include "bench/cli/shard_flags.hpp"
#include "bench/cli/sim_flags.hpp"
#include "bench/cli/values.hpp"
#include "bench/util/clock.hpp"

namespace bench::cli {

namespace {

// A flag whose value is one of a few words, stored as the enum it names: CLI11 checks the word
// (its one-line error names the flag and the words allowed), nothing compares strings later.
template <typename Enum, typename NameOf>
CLI::Option* add_choice(CLI::App& app, const std::string& flag, Enum& target,
                        std::initializer_list<Enum> values, NameOf name_of,
                        const std::string& help) {
  std::vector<std::pair<std::string, Enum>> choices;
  std::vector<std::string> words;
  for (Enum value : values) {
    choices.emplace_back(std::string(name_of(value)), value);
    words.emplace_back(name_of(value));
  }
  const std::string default_word(name_of(target));
  return app
      .add_option_function<std::string>(
          flag,
          [&target, choices](const std::string& word) {
            for (const auto& [name, value] : choices) {
              if (name == word) target = value;
            }
          },
          help)
      ->check(CLI::IsMember(words))
      ->default_str(default_word);
}

std::optional<std::string> environment_variable(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
}

bool has_crlf(const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; }

// Keys of --extra-body that would break the stream bench reads or the figures it reports.
// Without "stream": true the server answers with one JSON object, which no SSE parse accepts;
// with several choices ("n" > 1) the chunks of different answers interleave, so TTFT, ITL and
// the token counts would mix them.
void check_extra_body(const nlohmann::json& body) {
  if (body.contains("stream") && body["stream"] != true) {
    throw UsageError(
        fmt::format("--extra-body: \"stream\": {} is not supported: bench measures "
                    "streamed responses (it sends \"stream\": true)",
                    body["stream"].dump()));
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
  if (run.base_url.empty()) return;
  for (const CLI::Option* option : app.get_options()) {
    const std::string name = option->get_name();
    if (name.rfind("--sim-", 0) == 0 && option->count() > 0) {
      throw UsageError(fmt::format("{}: applies to the embedded server, not to --base-url {}", name,
                                   run.base_url));
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
    check_extra_body(parsed);
  }
  for (const std::string& header : run.headers) {
    const auto colon = header.find(':');
    if (colon == std::string::npos || colon == 0) {
      throw UsageError(fmt::format("--header: '{}' is not 'Name: value'", header));
    }
    if (has_crlf(header)) {
      throw UsageError("--header: a header may not contain CR or LF characters");
    }
  }
  if (has_crlf(run.api_key)) {
    throw UsageError("--api-key: the key may not contain CR or LF characters");
  }
  if (has_crlf(run.model)) throw UsageError("--model: the name may not contain CR or LF");
  if (!run.output_file.empty()) check_output_path("--output-file", run.output_file);
  if (!run.html_path.empty()) check_output_path("--html", run.html_path);
  if (!run.save_requests.empty()) check_output_path("--save-requests", run.save_requests);
  if (!run.sim.trace_path.empty()) check_output_path("--sim-trace", run.sim.trace_path);
}

// --dataset trace's own flags (workload/trace.hpp).
void add_trace_flags(CLI::App& app, workload::TraceOptions& trace, RawRunFlags& raw) {
  add_choice(app, "--trace-format", trace.format,
             {workload::TraceFormat::mooncake, workload::TraceFormat::azure,
              workload::TraceFormat::burstgpt},
             workload::trace_format_name,
             "trace: the file's layout: mooncake (JSON lines: timestamp ms, input_length, "
             "output_length, hash_ids), azure (CSV: TIMESTAMP, ContextTokens, GeneratedTokens), "
             "burstgpt (CSV: Timestamp, Model, Request tokens, Response tokens, ...)");
  app.add_option("--trace-speed", trace.speed,
                 "trace: time compression: arrivals come at the trace's offsets divided by this "
                 "(2 = twice as fast)")
      ->check(positive_number())
      ->capture_default_str();
  app.add_option("--trace-window", raw.trace_window,
                 "trace: replay only the rows at trace seconds [START, END) from its first row, "
                 "e.g. 60-120; offsets then count from START");
  app.add_option("--trace-model", trace.model, "trace (burstgpt): only the rows of this Model");
  app.add_option("--trace-log-type", trace.log_type,
                 "trace (burstgpt): only the rows of this Log Type ('Conversation log', "
                 "'API log')");
}

}  // namespace

void setup_run_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  app.add_option("--base-url", run.base_urls,
                 "Server root URL, e.g. http://127.0.0.1:8000 (env OPENAI_BASE_URL). "
                 "Repeat it for data-parallel replicas with no router: requests are spread "
                 "round robin (or by --server-weights) and every figure is also reported per "
                 "server. Absent: bench starts its embedded simulated server on a free "
                 "loopback port")
      ->envname("OPENAI_BASE_URL")
      ->allow_extra_args(false);
  app.add_option("--server-weights", raw.server_weights,
                 "With several --base-url: one whole number 1..1000 per server, in their order, "
                 "e.g. 3,1: the first is sent 3 of every 4 requests (by request index, so every "
                 "shard agrees)");
  add_choice(app, "--endpoint", run.endpoint,
             {protocol::Endpoint::chat, protocol::Endpoint::completions}, protocol::endpoint_name,
             "API to call: chat (/v1/chat/completions) or completions (/v1/completions)");
  app.add_option("--model", run.model, "Model name to send (default: first id of GET /v1/models)");
  app.add_option("--api-key", run.api_key,
                 "API key, sent as 'Authorization: Bearer KEY' (env OPENAI_API_KEY); never printed")
      ->envname("OPENAI_API_KEY");
  app.add_option("--concurrency,--max-concurrency", raw.concurrency,
                 "Requests in flight at most. A list (1,8,64,256) sweeps: one run per value, "
                 "one table. With --request-rate it is a cap (default then: none; the results "
                 "write max_concurrency null)")
      ->capture_default_str();
  app.add_option("--request-rate", raw.request_rate,
                 "Requests per second, arriving at random (Poisson, see --burstiness), or inf for "
                 "a closed loop. A list (1,4,16,inf) sweeps over the rate")
      ->capture_default_str();
  app.add_option("--burstiness", run.burstiness,
                 "Shape of the gamma-distributed gaps between arrivals: 1 = Poisson, < 1 burstier, "
                 "> 1 steadier (as SGLang and vLLM)")
      ->check(positive_number())
      ->capture_default_str();
  app.add_flag("--constant-rate", run.constant_rate,
               "Fixed gaps of exactly 1/rate between arrivals instead of random ones");
  add_choice(app, "--ramp-up-strategy", run.ramp_up_strategy,
             {schedule::RampStrategy::none, schedule::RampStrategy::linear,
              schedule::RampStrategy::exponential},
             schedule::ramp_strategy_name,
             "Raise the request rate from --ramp-up-start-rps to --ramp-up-end-rps over the run "
             "(vLLM's): linear or exponential");
  app.add_option("--ramp-up-start-rps", run.ramp_up_start_rps, "Ramp-up: requests/s at the start")
      ->check(non_negative_number());
  app.add_option("--ramp-up-end-rps", run.ramp_up_end_rps, "Ramp-up: requests/s at the end")
      ->check(non_negative_number());
  app.add_option("--num-prompts", run.num_prompts, "Measured requests to send")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--duration", raw.duration,
                 "Measure for this long instead of a number of requests (90, 90s, 5m, 1h): no "
                 "request starts after it; those in flight finish and count");
  app.add_flag("--duration-hard", run.duration_hard,
               "At the end of --duration, cancel requests in flight (counted as cancelled)");
  app.add_option("--warmup-duration", raw.warmup_duration,
                 "Warm up for this long before measuring (same load, not measured)");
  add_choice(app, "--dataset", run.dataset.kind,
             {workload::DatasetKind::random, workload::DatasetKind::sharegpt,
              workload::DatasetKind::jsonl, workload::DatasetKind::shared_prefix,
              workload::DatasetKind::random_ids, workload::DatasetKind::trace},
             workload::dataset_kind_name,
             "Where prompts come from: random (words), sharegpt (ShareGPT JSON file), jsonl "
             "(one {\"prompt\"} or {\"messages\"} a line), shared-prefix (groups sharing a "
             "system prompt, for prefix caching), random-ids (token ids as the prompt; "
             "completions), trace (replay a request trace: --trace-format)");
  app.add_option("--dataset-path", run.dataset.path, "The sharegpt, jsonl or trace file")
      ->check(CLI::ExistingFile);
  add_trace_flags(app, run.dataset.trace, raw);
  add_multi_turn_flags(app, run.multi_turn, raw.think_time);
  add_tool_flags(app, raw.tools);
  add_image_flags(app, run.images, raw.images);
  app.add_option("--range-ratio", run.dataset.range_ratio,
                 "random: each input and output length uniform in len x [1-r, 1+r] (vLLM's)")
      ->check(number_range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--sharegpt-output-len", run.dataset.sharegpt_output_len,
                 "sharegpt: max_tokens of every request instead of its reply's length")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
  app.add_option("--sharegpt-context-len", run.dataset.sharegpt_context_len,
                 "sharegpt: drop conversations whose prompt + output exceed this many words "
                 "(tokens with --tokenizer), instead of vLLM's 1024 prompt and 2048 total "
                 "limits (SGLang's --sharegpt-context-len)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
  app.add_option("--prefix-groups", run.dataset.prefix_groups,
                 "shared-prefix: groups, each with its own long system prompt")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option("--prefix-len", run.dataset.prefix_len,
                 "shared-prefix: words of each system prompt")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_option("--questions-per-group", run.dataset.questions_per_group,
                 "shared-prefix: requests per group (questions of --input-len words)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_flag("--no-shuffle{false}", run.dataset.shuffle,
               "sharegpt, jsonl: send the items in file order instead of shuffled by --seed");
  app.add_option("--tokenizer", run.tokenizer,
                 "Count lengths in tokens: 'server' (the server's /tokenize) or a Hugging Face "
                 "tokenizer.json; random prompts are then exactly --input-len tokens");
  app.add_flag("--input-len-includes-template", run.input_len_includes_template,
               "chat with --tokenizer: --input-len counts the chat template's tokens too, so "
               "the server counts exactly --input-len prompt tokens");
  app.add_option("--input-len", run.input_len,
                 "Prompt length in words, or tokens with --tokenizer (random); question length "
                 "(shared-prefix)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_option("--output-len", run.output_len, "max_tokens of every request")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_flag("--ignore-eos", run.ignore_eos,
               "Send ignore_eos: true so every request generates output-len tokens "
               "(vLLM, SGLang, llama.cpp)");
  app.add_option("--temperature", run.temperature, "Sampling temperature (default: server's)")
      ->check(non_negative_number());
  app.add_option("--extra-body", run.extra_body,
                 "JSON object merged into every request body, e.g. '{\"top_p\":0.9}'");
  app.add_option("--header", run.headers, "Extra request header 'Name: value' (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--seed", run.seed,
                 "Seed of the prompts, their lengths, file order and arrivals; the same seed "
                 "sends the same requests (default: a new one each run, recorded in the "
                 "results)")
      // CLI11 reads "-1" into an unsigned seed as 2^64 - 1, silently: refused instead.
      ->check(non_negative_number());
  app.add_flag("--reuse-prompts", run.reuse_prompts,
               "Send the same prompts at every point of a sweep and on every pass of a "
               "--duration run (cache-warm measurement; said in the report). Default: every "
               "request's prompt is new");
  app.add_option("--warmup-requests", run.warmup_requests,
                 "Requests sent before the measured phase, not measured")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000}))
      ->capture_default_str();
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
                 "Fail a request whose stream goes silent this many seconds (0 = no limit)")
      ->check(non_negative_number())
      ->capture_default_str();
  add_choice(app, "--per-chunk-usage", run.per_chunk_usage,
             {PerChunkUsage::auto_detect, PerChunkUsage::on, PerChunkUsage::off},
             per_chunk_usage_name,
             "Ask for usage on every chunk (vLLM continuous_usage_stats) to know each chunk's "
             "token count exactly: auto (probe the server first), on, off");
  app.add_option("--goodput", raw.goodput,
                 "SLOs for goodput, vLLM's syntax: ttft:MS tpot:MS e2el:MS (any of them)")
      ->expected(1, 3)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-under", raw.fail_under,
                 "CI gate: exit 4 when METRIC < VALUE, METRIC any number of the JSON results "
                 "(output_throughput=800); repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-over", raw.fail_over,
                 "CI gate: exit 4 when METRIC > VALUE (p99_ttft_ms=500); repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--max-error-rate", raw.max_error_rate,
                 "CI gate: exit 4 when failed / sent > F (0.01 or 1%); failures within it do "
                 "not fail the run");
  app.add_option("--repeat", run.repeat,
                 "Measure each run or sweep point N times, each with fresh prompts, and report "
                 "the mean and 95% confidence interval (Student's t) of every throughput and "
                 "of median and p99 latencies")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000}))
      ->capture_default_str();
  add_choice(app, "--gate-on", run.gate_on, {gate::GateOn::mean, gate::GateOn::worst},
             gate::gate_on_name,
             "With --repeat, what --fail-under/--fail-over/--max-error-rate judge: mean (of "
             "the repeats) or worst (every repeat must pass)");
  app.add_option("--html", run.html_path, "Also write a self-contained HTML report here");
  app.add_option("--output-format", raw.output_format,
                 "What stdout holds: text (human report), json (only the results object) or csv "
                 "(one header, one row per run)")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  app.add_option("--output-file", run.output_file, "Also write the JSON results to this file");
  app.add_option("--json-compat", run.json_compat,
                 "Write the JSON results (stdout and --output-file) as vLLM's or SGLang's scripts "
                 "read them: *_itl_ms are per-chunk gaps (bench's icl), bench's per-token ITL "
                 "moves to *_itl_per_token_ms; vllm adds *_e2el_ms, total_token_throughput, "
                 "request_goodput")
      ->check(CLI::IsMember({"vllm", "sglang"}));
  app.add_option("--save-requests", run.save_requests,
                 "Write one JSON line per request (timings, chunks, tokens, status) to this file");
  app.add_flag("--flush-cache", run.flush_cache,
               "Empty the server's prefix cache before each run or sweep point (SGLang "
               "/flush_cache, vLLM /reset_prefix_cache, llama.cpp cache_prompt false)");
  app.add_flag_callback(
      "--no-answer-check", [&run] { run.answer_check = false; },
      "Do not send the answer check: a few short known-answer prompts (\"Count from 1 "
      "to 10.\") at temperature 0 to each server before the run, which warn when the "
      "answers do not look like a model's work (random weights, a broken server). It "
      "never fails the run, and its requests are in no figure");
  app.add_option("--server-metrics", run.server_metrics_urls,
                 "Read the server's Prometheus metrics (default URL: <base-url>/metrics) before "
                 "and after each run or point, and hold its token counters against bench's; "
                 "repeat it for several servers behind a router (their counts are added up)")
      ->expected(0, 1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--server-metrics-interval", run.server_metrics_interval_s,
                 "With --server-metrics: read the server's gauges (running and waiting requests, "
                 "KV-cache usage) this often while a point runs, seconds, on a thread of their "
                 "own; 0 = only before and after it")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--gpus", run.gpus,
                 "Accelerators (GPUs) serving the model, recorded with the results: output, "
                 "input and total tok/s per GPU are each throughput over N; without it they are "
                 "unknown")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}));
  app.add_option("--gpu-hour-price", run.gpu_hour_price,
                 "USD per GPU-hour (needs --gpus): each point's cost per million output, input "
                 "and total tokens, each charging the GPUs' whole time to its kind")
      ->check(positive_number());
  app.add_flag("--insecure", run.insecure, "Do not verify TLS certificates");
  app.add_option("--cacert", run.cacert, "CA certificate bundle for TLS")->check(CLI::ExistingFile);
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
      ->default_str("auto");
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
                 "After Ctrl-C/SIGTERM: seconds in-flight requests may finish before cancelling")
      ->check(non_negative_number())
      ->capture_default_str();
  app.add_flag("--quiet,-q", run.quiet, "No progress or notes on stderr");
  add_sim_flags(app, run.sim, "--sim-");
  setup_shard_flags(app, raw);
  setup_live_flags(app, run);
}

namespace {

// Refused before anything is sent: token ids only fit /v1/completions' prompt, and the template
// is only counted in when a tokenizer measures it on a chat endpoint.
void check_token_flags(const RunOptions& run) {
  const bool chat = run.endpoint == protocol::Endpoint::chat;
  if (run.dataset.kind == workload::DatasetKind::random_ids && chat) {
    throw UsageError(
        "--dataset random-ids: token ids are sent as /v1/completions' prompt; add "
        "--endpoint completions");
  }
  if (run.input_len_includes_template && (run.tokenizer.empty() || !chat)) {
    throw UsageError("--input-len-includes-template: needs --tokenizer and the chat endpoint");
  }
}

// A trace brings its own arrivals and lengths: the flags that would set them are refused (before
// any other check of theirs, so the message says why), and the trace's flags need a trace.
void refuse_trace_conflicts(const CLI::App& app, const RunOptions& run) {
  const bool trace = run.dataset.kind == workload::DatasetKind::trace;
  for (const char* flag :
       {"--trace-format", "--trace-speed", "--trace-window", "--trace-model", "--trace-log-type"}) {
    if (!trace && app.count(flag) > 0) {
      throw UsageError(fmt::format("{}: only with --dataset trace", flag));
    }
  }
  if (!trace) return;
  for (const char* flag :
       {"--request-rate", "--burstiness", "--constant-rate", "--ramp-up-strategy",
        "--ramp-up-start-rps", "--ramp-up-end-rps", "--duration", "--duration-hard",
        "--warmup-duration", "--reuse-prompts", "--input-len", "--output-len", "--range-ratio"}) {
    if (app.count(flag) > 0) {
      throw UsageError(
          fmt::format("{}: not with --dataset trace, which replays the trace's own "
                      "arrivals and lengths (see --trace-speed, --trace-window, "
                      "--num-prompts)",
                      flag));
    }
  }
}

// --dataset trace: its format and window, and --concurrency as a cap only (none by default, as
// with --request-rate).
void finish_trace_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  if (run.dataset.kind != workload::DatasetKind::trace) return;
  if (app.count("--trace-format") == 0) {
    throw UsageError("--dataset trace: needs --trace-format mooncake|azure|burstgpt");
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
  if (!run.concurrency_given) run.concurrency = {kOpenLoopDefaultCap};
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
  check_token_flags(run);
  // SGLang's generated-shared-prefix sends every question of every group once.
  run.num_prompts_given = app.count("--num-prompts") > 0;
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
  if (!run.concurrency_given) run.concurrency = {kOpenLoopDefaultCap};
}

// The load: concurrency and rate (one of them may be a sweep), arrivals, the ramp.
void finish_load_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  run.concurrency = parse_count_list("--concurrency", raw.concurrency, 1, 1'000'000);
  run.concurrency_given = app.count("--concurrency") + app.count("--max-concurrency") > 0;
  run.request_rates = parse_rate_list("--request-rate", raw.request_rate);
  if (run.concurrency.size() > 1 && run.request_rates.size() > 1) {
    throw UsageError(
        "--concurrency and --request-rate: sweep one of them at a time (a list for "
        "one, a single value for the other)");
  }
  const bool open_loop = std::any_of(run.request_rates.begin(), run.request_rates.end(),
                                     [](double rate) { return std::isfinite(rate); });
  if (open_loop && !run.concurrency_given) run.concurrency = {kOpenLoopDefaultCap};
  if (run.constant_rate && run.burstiness != 1.0) {
    throw UsageError("--constant-rate and --burstiness: fixed gaps have no burstiness");
  }
  if (run.ramp_up_strategy != schedule::RampStrategy::none) check_ramp(app, run);
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
    run.gates.push_back(std::get<gate::Gate>(parsed));
  };
  for (const std::string& spec : raw.fail_under) add_gate(gate::GateKind::fail_under, spec);
  for (const std::string& spec : raw.fail_over) add_gate(gate::GateKind::fail_over, spec);
  if (!raw.max_error_rate.empty()) {
    add_gate(gate::GateKind::max_error_rate, raw.max_error_rate);
    run.max_error_rate_given = true;
  }
  for (const gate::Gate& gate : run.gates) {
    if ((gate.metric == "goodput" || gate.metric == "good_requests") && !run.goodput.any()) {
      throw UsageError(fmt::format("{}: '{}' needs --goodput (which SLOs make a request good)",
                                   gate::flag_of(gate.kind), gate.spec));
    }
  }
}

}  // namespace

void finish_run_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw) {
  refuse_trace_conflicts(app, run);
  finish_load_flags(app, run, raw);
  run.seed_given = app.count("--seed") > 0;
  run.server_metrics = app.count("--server-metrics") > 0;
  // 32 bits: exact in every JSON reader (jq's numbers are doubles), so a run can be replayed.
  if (!run.seed_given) run.seed = std::random_device{}();
  finish_dataset_flags(app, run);
  finish_trace_flags(app, run, raw);
  finish_duration_flags(app, run, raw);
  finish_multi_turn_flags(app, run, raw.think_time);
  finish_tool_flags(run, raw.tools);
  finish_image_flags(app, run, raw.images);
  finish_gate_flags(run, raw);
  check_cost_flags(run);
  run.output_format = raw.output_format == "json"  ? OutputFormat::json
                      : raw.output_format == "csv" ? OutputFormat::csv
                                                   : OutputFormat::text;
  finish_server_flags(run, raw.server_weights);
  validate_run(run);
  refuse_sim_flags_with_base_url(app, run);
  finish_shard_flags(run, raw, environment_variable, wall_clock_ns());
  finish_live_flags(app, run);
}

}  // namespace bench::cli
