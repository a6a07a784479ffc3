#pragma once
// The results file's one writer: the run object (to_json), a sweep's, the CSV rows, the
// per-request JSONL line and the metric definitions, from a RunSummary and what the run was
// (RunContext). Report renders what these write; merge and app write through them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/client_load.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/results/format.hpp"
#include "bench/server_metrics/gauge_series.hpp"
#include "bench/server_metrics/queue_check.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace bench::results {

/// What the client itself cost during the run, and whether that may have bent the figures.
struct ClientCheck {
  metrics::ClientLoad load;  // what it cost
  // The self-check's verdicts (app/client_verdict.hpp): the client's own work made it late
  // ("client_saturated"); its host ran it late ("host_late"). Both may hold, or neither while a
  // warning says what was late.
  bool saturated = false;
  bool host_late = false;
  std::vector<std::string> warnings;  // why, one line each
};

/// --server-metrics-interval: the server's gauges polled while a point ran.
struct GaugePolls {
  double interval_s = 0;
  server_metrics::GaugeSeries series;  // readings' times count from origin_steady_ns
  std::int64_t origin_steady_ns = 0;   // the series' time 0 on the steady clock (util/clock.hpp)
  std::size_t polls = 0;               // scrapes that ended (answered or failed)
  std::size_t failed = 0;              // of them, those that gave no reading
  std::size_t skipped = 0;             // ticks missed because a scrape outlasted the interval
  std::string first_failure;           // why the first failed poll failed; empty when none did
  double slowest_scrape_s = 0;
  server_metrics::QueueCounts queue;  // answered polls by the queueing they saw (queue_check.hpp)
};

/// --server-metrics: what the server's own counters say of the point, scraped before it (and
/// its warm-up) and after its last request.
struct ServerMetricsWindow {
  std::string url;                             // what was scraped, without a password
  std::optional<server_metrics::Delta> delta;  // nullopt when a scrape failed
  std::string failure;                         // why, one line; empty when both scrapes worked
  std::int64_t warmup_requests = 0;            // inside the window, outside bench's counts
  bool warmup_drained = false;                 // the window opened once the warm-up had ended
  // The point's epoch on the steady clock, where the records' times (and so the timeline's)
  // count from: what lays the polled gauges onto the timeline's buckets.
  std::int64_t records_epoch_steady_ns = 0;
  std::optional<GaugePolls> polls;  // nullopt when not polled (interval 0)
  // Several servers behind a router: each one's own window (the figures above are their sum);
  // empty with one server.
  std::vector<ServerMetricsWindow> servers;
};

/// What the server runs on, as the user said (--gpus, --gpu-hour-price): the per-GPU figures
/// divide by `gpus` and the cost figures charge `gpu_hour_usd` (results/efficiency.hpp). Each
/// nullopt when not given: bench never guesses a server's accelerators.
struct Accelerators {
  std::optional<std::int64_t> gpus;    // accelerators serving the model
  std::optional<double> gpu_hour_usd;  // USD per GPU-hour
};

/// What the run was, for the report's header and the JSON "config" object.
struct RunContext {
  std::string base_url;          // server that was benchmarked
  bool embedded_server = false;  // true when bench started its own simulated server
  std::string endpoint;          // "chat" or "completions"
  std::string model;
  // Most requests in flight (closed loop: exactly this many); nullopt when nothing capped them
  // (an open loop or trace without --concurrency).
  std::optional<std::int64_t> concurrency;
  double request_rate = 0;  // offered requests/s; infinity = closed loop
  // vLLM's --ramp-up-strategy ("none", "linear", "exponential") and its rates, requests/s:
  // with a ramp, the offered rate is not one number, so request_rate is written as null.
  std::string ramp_up_strategy = "none";
  double ramp_up_start_rps = 0;
  double ramp_up_end_rps = 0;
  std::int64_t num_prompts = 0;          // measured requests asked for
  std::int64_t input_len = 0;            // requested input length (input_len_unit)
  std::string input_len_unit = "words";  // "tokens" with --tokenizer or random-ids
  std::int64_t output_len = 0;           // requested max_tokens
  std::string started_at;                // wall clock, ISO 8601 UTC, label only
  bool interrupted = false;              // a signal stopped the run early
  // Whether prompts were meant to share a prefix cache's content: a shared-prefix dataset
  // (sharing is its purpose), or --reuse-prompts (a cache-warm measurement, written as
  // "reused_prompts"). With either, a high cached share is expected and draws no warning.
  bool prompts_share_prefixes = false;
  bool prompts_reused = false;
  // A trace replay (--dataset trace): its prompts share prefixes only where the trace's hash
  // ids repeat, and the report names it so, not as a shared-prefix workload.
  bool prompts_from_trace = false;
  // --multi-turn: each turn resends its session's history, which a prefix cache serves by
  // design (the run's results hold "multi_turn").
  bool prompts_resend_history = false;
  // --prefix-share: the share of each prompt the point's requests share, as asked (the cache-hit
  // share a warm prefix cache gives); nullopt without the flag. Written as "prefix_share".
  std::optional<double> prefix_share;
  /// A high cached share is the workload's own doing, not a flattered measurement.
  bool meant_to_share_prefixes() const {
    return prompts_share_prefixes || prompts_reused || prompts_resend_history ||
           prefix_share.value_or(0) > 0;
  }
  ClientCheck client;
  // What made the results (results/provenance.hpp); null when unknown (merged older shards).
  nlohmann::json provenance = nullptr;
  nlohmann::json config = nlohmann::json::object();  // every option, API key redacted
  // The embedded server's settings (sim::settings_json); null against a real server.
  nlohmann::json simulator = nullptr;
  // The answer check made before the run (results/answer_check.hpp); null when not made.
  nlohmann::json answer_check = nullptr;
  std::optional<ServerMetricsWindow> server_metrics;  // with --server-metrics only
  Accelerators accelerators;                          // --gpus, --gpu-hour-price
};

/// The results object. Flat keys read by scripts written for SGLang's bench_serving and vLLM's
/// benchmark (duration, completed, failed, total_input_tokens, total_output_tokens,
/// request_throughput, input_throughput, output_throughput, total_throughput, concurrency,
/// {stat}_{key}_ms of every row of latency_figures.hpp), plus schema_version,
/// bench_version, config, token_count_source, errors, and definitions (one line per metric).
nlohmann::json to_json(const metrics::RunSummary& summary, const RunContext& context);

/// A sweep: {"kind": "sweep", "sweep": {"variable", "values"}, "points": [run objects]}.
/// `variable` is "concurrency" or "request_rate"; values as the points' own (rates: "inf").
nlohmann::json sweep_to_json(const std::string& variable, const nlohmann::json& values,
                             const std::vector<nlohmann::json>& points);

/// CSV for scripts and spreadsheets: one header line, one row per run object (a single run, or
/// each point of a sweep), the same keys as the JSON.
std::string to_csv(const std::vector<nlohmann::json>& runs);

/// One JSONL line (no trailing newline) for --save-requests: the request's start offset, TTFT,
/// every chunk arrival offset (ms from its start), token counts and their source, status, error.
/// `point`, when not null, leads the line: which sweep point the request belongs to. `server`:
/// which --base-url the request went to (0-based, in the flags' order, as in `per_server`).
std::string request_to_jsonl(const metrics::RequestRecord& record,
                             const nlohmann::json& point = nullptr, std::size_t server = 0);
/// The same line appended to `out`, with `point` already written as JSON (empty: none): what the
/// request log calls as each request ends, on the event loop, so it allocates next to nothing.
void append_request_jsonl(std::string& out, const metrics::RequestRecord& record,
                          std::string_view point, std::size_t server);

/// Above this share of input tokens served from the server's prefix cache, a workload not meant
/// to share prefixes gets a warning: its input tok/s and TTFT measure the cache, not prefill.
inline constexpr double kCachedShareWarning = 0.10;

/// Cached / (computed + cached) input tokens over the requests that disclosed their split;
/// nullopt when none did or they had no input tokens.
std::optional<double> cached_input_share(const metrics::InputTokenSplit& split);

/// Why a workload shares prompt prefixes on purpose, so that a high cached share is no warning;
/// none when its prompts were meant to be fresh.
enum class SharingIntent {
  none,
  reused_prompts,  // --reuse-prompts
  trace_prefixes,  // a trace whose hash ids repeat
  prefix_share,    // --prefix-share above 0
  shared_prefix,   // a shared-prefix dataset
  resent_history,  // multi-turn sessions resending their history
};
SharingIntent sharing_intent(const RunContext& context);

/// The warning when the cached share exceeds kCachedShareWarning on a workload not meant to
/// share prefixes (sharing_intent); nullopt otherwise.
std::optional<std::string> prompt_cache_warning(const metrics::RunSummary& summary,
                                                const RunContext& context);

/// The "definitions" object: metric name -> one line saying what it measures.
nlohmann::json metric_definitions();

}  // namespace bench::results
