#pragma once
// Everything a user can ask of bench, as plain data. CLI11 binds to these structs in
// parse_cli(); the app module does the work. Every field says its unit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <limits>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"
#include "bench/gate/gate.hpp"
#include "bench/images/image_spec.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/record/record.hpp"
#include "bench/results/peer_results.hpp"
#include "bench/schedule/arrival.hpp"
#include "bench/sim/sim_options.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/multi_turn.hpp"

namespace bench::cli {

enum class OutputFormat { text, json, csv };
std::string_view output_format_name(OutputFormat format);  // "text", "json", "csv"

/// --per-chunk-usage: whether to ask for vLLM's continuous_usage_stats.
enum class PerChunkUsage { auto_detect, on, off };
std::string_view per_chunk_usage_name(PerChunkUsage mode);  // "auto", "on", "off"

/// Whose command line this is (cli/dialect.hpp): bench's own, or one written for vLLM's or
/// SGLang's benchmark client, read with that client's meanings and defaults.
enum class Dialect { bench, vllm, sglang };
std::string_view dialect_name(Dialect dialect);  // "bench", "vllm", "sglang"

inline constexpr double kUnlimitedRate = std::numeric_limits<double>::infinity();
// In an open loop (--request-rate) without --concurrency, the cap on requests in flight: high
// enough not to shape the load, as vLLM and SGLang apply none unless asked.
inline constexpr std::int64_t kOpenLoopDefaultCap = 65536;

/// The benchmark run (`bench [flags]`).
/// Where --metrics-listen serves: a host (name or address) and a port (0: the kernel picks).
struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 0;
};

/// What bench asks of the servers beside the load, as given: app::ServerPlan is these and what
/// the plan settles, so each of these flags reaches its user through this struct alone.
struct ServerAsks {
  // --per-chunk-usage: whether to ask for continuous_usage_stats.
  PerChunkUsage per_chunk_usage = PerChunkUsage::auto_detect;
  // Send the known-answer prompts before the run and say whether the answers look like a
  // model's work (app/run/answer_probe.hpp); --no-answer-check turns it off.
  bool answer_check = true;
  // --flush-cache: empty the server's prefix cache before each point (app/server/cache_flush.hpp).
  bool flush_cache = false;
  // --server-metrics: scrape the server's Prometheus metrics before and after each point, from
  // these URLs, one per server (several behind a router); an empty entry (the flag without a
  // value) = <base-url>/metrics.
  bool metrics = false;
  std::vector<std::string> metrics_urls;
  double metrics_interval_s = 1.0;  // --server-metrics-interval: gauge polls, s; 0 = edges only
};

/// What the run prints and writes, and what it is held to, as given: app::OutputPlan is these
/// and --json-compat read, so each of these flags reaches its user through this struct alone.
struct OutputOptions {
  OutputFormat format = OutputFormat::text;  // --output-format: what stdout holds
  std::string output_file;    // --output-file: also write the JSON results here (atomically)
  std::string html_path;      // --html: also write the HTML report here
  std::string save_requests;  // --save-requests: JSONL, one record per request
  bool quiet = false;         // --quiet: no progress or notes on stderr
  bool no_progress = false;   // --disable-tqdm (vLLM's, SGLang's): no progress line; notes stay
  // CI gates: --fail-under, --fail-over, --max-error-rate, checked on the results (exit 4).
  std::vector<gate::Gate> gates;
  bool max_error_rate_given = false;          // then failed requests within it do not fail the run
  gate::GateOn gate_on = gate::GateOn::mean;  // --gate-on: a repeated point's mean, or worst
  // vLLM's --save-result family, and what a peer's command line asks of the output (SGLang's
  // --output-file line, vLLM's summary block): results/peer_results.hpp.
  results::PeerResultOptions peer_results;
};

struct RunOptions {
  // --base-url, repeated (cli/server_flags.hpp): every server's root, e.g. http://127.0.0.1:8000,
  // the first the one asked what the run needs of a server; empty = the embedded sim. Requests
  // are spread over them by their index (app/server_spread.hpp).
  std::vector<std::string> base_urls;
  // --server-weights: one whole number per server of base_urls, in order; empty = round robin.
  std::vector<std::int64_t> server_weights;
  protocol::Endpoint endpoint = protocol::Endpoint::chat;  // --endpoint (protocol/endpoint.hpp)
  std::string model;                                       // empty = first id from GET /v1/models
  std::string api_key;  // sent as "Authorization: Bearer ..."; never printed
  // Requests in flight at most. Several values make a sweep: one run per value, in order.
  std::vector<std::int64_t> concurrency = {64};
  bool concurrency_given = false;  // --concurrency was on the command line
  // Offered load, requests/s; infinity = closed loop (a new request as soon as a slot frees).
  // Several values make a sweep over the rate, each capped by the (single) concurrency.
  std::vector<double> request_rates = {kUnlimitedRate};
  double burstiness = 1.0;     // gamma shape of the gaps: 1 = Poisson (SGLang, vLLM)
  bool constant_rate = false;  // fixed gaps of 1/rate instead of random ones
  schedule::RampStrategy ramp_up_strategy = schedule::RampStrategy::none;  // vLLM's
  double ramp_up_start_rps = 0;     // the ramp's rate at the start, requests/s
  double ramp_up_end_rps = 0;       // and at the end
  std::int64_t num_prompts = 1000;  // measured requests (unless --duration bounds the run)
  bool num_prompts_given = false;   // --num-prompts was on the command line
  // The dataset's own flags (--dataset, --dataset-path, --range-ratio, ...), bound straight
  // into what the workload module takes. Its count, input_len, output_len and seed are not
  // flags of their own: the run plan fills them from the fields below.
  workload::DatasetOptions dataset;
  double duration_s = 0;          // measured phase length, seconds; 0 = bounded by num_prompts
  bool duration_hard = false;     // at the end of --duration, cancel what is in flight
  double warmup_duration_s = 0;   // warm-up by time, seconds, before the measured phase
  std::int64_t input_len = 1024;  // prompt length, words (a stand-in for tokens), or tokens
                                  // with a tokenizer
  // --tokenizer: "server" (its /tokenize), a tokenizer.json path, or "" (lengths are words).
  std::string tokenizer;
  bool input_len_includes_template = false;  // chat: --input-len counts the template's tokens
  // --trust-remote-code (vLLM's, SGLang's, for their Python tokenizers): accepted, and said at
  // start to do nothing, since bench runs no model code.
  bool trust_remote_code = false;
  std::int64_t output_len = 128;  // max_tokens per request
  bool ignore_eos = false;        // send ignore_eos: true
  // --no-stream (SGLang's --disable-stream): send "stream": false, each answer read as one JSON
  // body: E2E and tokens, no TTFT, ITL or TPOT (protocol::RequestOptions::stream).
  bool no_stream = false;
  std::optional<double> temperature;  // sampling temperature; unset = server default
  std::string extra_body;             // JSON object merged into every request body
  // Chat only (cli/tool_flags.hpp), each "" when not given: the --tools file's array of tool
  // definitions as JSON text, sent as "tools"; --tool-choice as given (auto, required, none or
  // a tool's name, sent as OpenAI's named-function object); --response-format's object as JSON
  // text, sent as "response_format".
  std::string tools;
  std::string tool_choice;
  std::string response_format;
  // --images-per-request, --image-size, --image-format (cli/image_flags.hpp): random images in
  // every chat request; per_request 0 = none.
  images::ImageSpec images;
  std::vector<std::string> headers;  // extra "Name: value" headers
  // Seed of every draw: prompt text and lengths, file order, open-loop arrivals. Without
  // --seed each run draws its own (recorded in the results), so a rerun never resends the
  // prompts of an earlier run to a server whose prefix cache may still hold them.
  std::uint64_t seed = 42;
  bool seed_given = false;  // --seed was on the command line
  // --reuse-prompts: every point (and a --duration run's every pass) resends the same prompts,
  // to measure a warm prefix cache on purpose; said in the report. Off: every request fresh.
  bool reuse_prompts = false;
  std::int64_t warmup_requests = 0;  // requests sent (at the same concurrency) before measuring
  double request_timeout_s = 600;    // whole-request cap, seconds
  // --latency-sample-budget: raw latency values kept exact, all distributions together; beyond
  // it, histograms (metrics/sample_budget.hpp).
  std::uint64_t latency_sample_budget = 2'000'000;
  double connect_timeout_s = 10;  // TCP/TLS connect cap, seconds
  double ttft_timeout_s = 0;      // send -> first generated text cap, seconds; 0 = none
  double stall_timeout_s = 60;    // longest silence mid-stream, seconds; 0 = none
  // Before the measured phase (app/server/readiness.hpp, startup_fetch.hpp): how long a server
  // not ready yet (refusing, 503) is waited for, and how long a start-up exchange may be silent.
  double ready_timeout_s = 600;   // --ready-timeout, seconds; 0 = never wait
  double startup_timeout_s = 10;  // --startup-timeout, seconds; 0 = none
  // A run whose every connection attempt has failed for this long ends (exit 3), seconds;
  // 0 = never (app/point/unreachable_watch.hpp).
  double unreachable_timeout_s = 10;
  // Event loops (each its own curl multi handle); nullopt = auto, chosen per point from its
  // expected load and the usable cores (app/client_threads.hpp).
  std::optional<std::size_t> client_threads;
  // Connections opened before the measured phase; -1 = the point's estimate (closed loop: its
  // concurrency; open loop: one second of arrivals, within its concurrency cap); 0 = none.
  std::int64_t preconnect = -1;
  std::int64_t max_line_bytes = 1 << 20;       // longest SSE line (and event) accepted, bytes
  std::int64_t max_response_bytes = 64 << 20;  // largest response accepted, bytes
  metrics::Slo goodput;                        // SLOs of --goodput; none = no goodput figure
  // --repeat: how many times each run or sweep point is measured (fresh prompts each time); > 1
  // reports the mean and 95% confidence interval of each figure (results/repeats.hpp).
  std::int64_t repeat = 1;
  OutputOptions output;     // what it prints and writes, and the gates
  std::string json_compat;  // --json-compat: "" (bench's keys), "vllm" or "sglang"
  ServerAsks server;        // what it asks of the servers beside the load
  // --gpus: accelerators serving the model, what the per-GPU figures divide by; nullopt = not
  // given, and then every per-GPU and cost figure is unknown (never guessed).
  std::optional<std::int64_t> gpus;
  // --gpu-hour-price: USD per GPU-hour, what the cost figures charge; needs --gpus.
  std::optional<double> gpu_hour_price;
  // bench's own live figures (cli/live_flags.hpp, docs/live-metrics.md).
  std::optional<ListenAddress> metrics_listen;  // --metrics-listen; none: no listener
  double metrics_window_s = 30;                 // --metrics-window: the live percentiles' window, s
  double metrics_linger_s = 0;                  // --metrics-linger: keep serving after the run, s
  std::string live_jsonl;                       // --live-jsonl: one JSON line per snapshot; "" none
  bool traceparent = true;    // a W3C traceparent header on every request (--no-traceparent)
  std::string otlp_endpoint;  // --otlp-endpoint: OTLP/HTTP JSON traces URL; "" none
  bool insecure = false;      // skip TLS verification
  std::string cacert;         // CA bundle path
  double grace_s = 5;         // after Ctrl-C, in-flight requests get this long to finish
  sim::SimOptions sim;        // the embedded server's settings (when base_urls is empty)
  // Shards (cli/shard_flags.hpp): this process sends request k of each point only when
  // k mod shard_count == shard_index (0-based); shard_count 1 = not sharded.
  std::int64_t shard_index = 0;
  std::int64_t shard_count = 1;
  std::string shard_source;  // "--shard", "JOB_COMPLETION_INDEX", "SLURM_PROCID"; or empty
  // --start-at: the first request waits for this wall-clock time, ns since the Unix epoch.
  std::optional<std::int64_t> start_at_unix_ns;
  std::string start_at;  // --start-at as given, for the results
  // --multi-turn and its flags (workload/multi_turn.hpp): --num-prompts then counts sessions.
  workload::MultiTurnOptions multi_turn;
  // The command line's dialect (cli/dialect.hpp), how its peer flags were read (said at start)
  // and the peer's defaults bench did not take because they would falsify a figure (said at
  // start and recorded with the results).
  Dialect dialect = Dialect::bench;
  std::vector<std::string> dialect_notes;
  std::vector<std::string> peer_defaults_not_taken;
};

/// Whether any point of the run is an open loop (schedule::is_open_loop of its --request-rate,
/// the ramp and a trace's arrivals): its --concurrency is then a cap, none unless given.
bool any_open_loop(const RunOptions& run);

// version: --version, answered by the app (app/plan/provenance.hpp), which knows the build's
// commit and the libcurl loaded.
enum class Command {
  run,
  serve_sim,
  compare,
  report,
  export_results,
  search,
  merge,
  record,
  conformance,
  grade,
  certify,
  version
};

/// `bench search`: the variable searched.
enum class SearchOver { concurrency, rate };
std::string_view search_over_name(SearchOver over);  // "concurrency", "rate"

/// --slo-window: what a probe's SLOs judge. steady: one wave of warm-up before a concurrency
/// probe (unless --warmup-* was given) and the throughputs of its steady-state window; whole:
/// no warm-up added, every figure of the whole measured phase.
enum class SloWindow { steady, whole };
std::string_view slo_window_name(SloWindow window);  // "steady", "whole"

/// `bench search [run flags] --slo ...`: the largest load meeting every SLO (app/load_search.hpp).
struct SearchOptions {
  std::vector<gate::Gate> slos;               // --slo METRIC<=VALUE | METRIC>=VALUE, at least one
  SearchOver over = SearchOver::concurrency;  // --over concurrency|rate
  double start = 1;  // --start: the first probe (concurrency, or requests/s)
  double cap = 0;    // --max: no probe above it; 0 = 1024 (concurrency), 1000 (rate)
  double resolution_fraction = 0.05;  // --resolution 5%: bisect until the gap is this share
  double resolution_step = 0;         // --resolution N: or until it is N (load units); 0 = by share
  double max_time_s = 0;              // --max-time: no probe starts after it; 0 = no limit
  bool warmup_given = false;          // --warmup-*: else each probe warms up with one wave
  SloWindow slo_window = SloWindow::steady;  // --slo-window
  // --min-goodput P%: a probe also needs this share of its sent requests good (--goodput's
  // SLOs); nullopt = not asked.
  std::optional<double> min_goodput_share;
};

/// `bench compare BASE.json NEW.json`.
struct CompareOptions {
  std::string base_path;
  std::string new_path;
  compare::Thresholds fail_on_regression;    // --fail-on-regression: for all, and per figure
  OutputFormat format = OutputFormat::text;  // --output-format: text or json
};

/// `bench report RESULTS.json -o REPORT.html`, and `--as vllm,sglang,... --requests LOG`: what
/// each tool would have printed for the run, recomputed from its request log (peer_view/).
struct ReportOptions {
  std::string results_path;
  std::string output_path;                   // -o: the HTML report; empty = none written
  std::vector<std::string> as;               // --as: the tools, by peer_view's ids
  std::string requests_path;                 // --requests: the run's --save-requests log
  OutputFormat format = OutputFormat::text;  // --output-format: what stdout holds with --as
};

/// `bench export RESULTS.json --format FORMAT [-o FILE] [--point N]`: a results file in another
/// tool's format. llm-d-report: llm-d's Benchmark Report v0.2.1 (results/llmd_report.hpp).
enum class ExportFormat { llmd_report };

struct ExportOptions {
  std::string results_path;
  ExportFormat format = ExportFormat::llmd_report;  // --format
  std::string output_path;                          // -o: written atomically; empty = stdout
  std::optional<std::int64_t> point;  // --point: one point of a sweep (1-based); none = every one
};

/// `bench merge SHARD.json... [-o MERGED.json]` (merge/merge.hpp).
struct MergeOptions {
  std::vector<std::string> shard_paths;      // the shards' results files, any order
  std::string output_path;                   // the merged results JSON; empty = none written
  OutputFormat format = OutputFormat::text;  // what stdout holds
};

/// `bench conformance [--base-url URL] ...`: a fixed battery of checks of what bench relies on,
/// recorded through `bench record`'s proxy (app/conform/conformance.hpp).
struct ConformanceOptions {
  std::string base_url;              // the server's root; empty = the embedded simulator
  std::string model;                 // empty = the first of GET /v1/models
  std::string api_key;               // sent as "Authorization: Bearer ..."; never written
  std::vector<std::string> headers;  // extra "Name: value" headers
  std::string out_dir;               // the archive; empty = ./bench-conformance-<date>
};

/// `bench certify RESULTS.json`: bench's own error at a saved run's load, measured on a loopback
/// twin of its server; `bench certify REQUESTS --truth TRACE`: a run made against the embedded
/// server, its request log (--save-requests) joined by response id to that server's truth log
/// (app/certify/certify.hpp).
struct CertifyOptions {
  std::string input_path;     // a results file (the twin), or with --truth the run's request log
  std::string truth_path;     // --truth: the server's truth log of the same run; empty: the twin
  std::int64_t window = 200;  // --window: the twin replays at most this many of the run's requests
  double share = 0.05;        // --max-error-share: a bound over this share of its figure is flagged
  double timeout_s = 600;     // --timeout: the twin's replay, stopped after this many seconds
  std::vector<std::string> fail_over;  // --fail-over KEY=VALUE: gates on the certificate's keys
  OutputFormat format = OutputFormat::text;  // --output-format: text or json
};

/// `bench grade [--sim-X ...] -- COMMAND ARGS...`: another client's figures against the embedded
/// server's truth log, beside bench's own on the same load (app/grade/grade.hpp).
struct GradeOptions {
  sim::SimOptions sim;               // the server the client meets (--sim-X); its truth log is
                                     // the grade's own
  std::vector<std::string> command;  // the client's command line, {url} and {results} in it
  std::string results_path;          // --results: where it writes its results file; empty = the
                                     // {results} path bench gives it
  double timeout_s = 600;            // --timeout: the client's time before it is stopped
  bool with_bench = true;            // false with --no-bench: bench's own run left out
  OutputFormat format = OutputFormat::text;  // --output-format: text or json
};

struct ParseResult {
  Command command = Command::run;
  RunOptions run;
  sim::SimOptions serve_sim;
  CompareOptions compare;
  ReportOptions report;
  ExportOptions export_options;  // with Command::export_results
  SearchOptions search;          // with Command::search; the probes' flags are in `run`
  MergeOptions merge;
  record::RecordOptions record;  // with Command::record
  ConformanceOptions conformance;
  GradeOptions grade;
  CertifyOptions certify;
  // When set, the process should exit now with this code after printing `message`
  // (to stdout for --help/--version, to stderr for errors).
  std::optional<int> exit_code;
  std::string message;
};

/// Parses argv (and OPENAI_BASE_URL / OPENAI_API_KEY from the environment). Never exits the
/// process and never throws for bad input: errors come back as exit_code + message naming the
/// flag and the value.
ParseResult parse_cli(int argc, const char* const* argv);

/// The options as a JSON object for results files: the API key redacted.
nlohmann::json options_to_json(const RunOptions& options);

}  // namespace bench::cli
