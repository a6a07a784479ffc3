#pragma once
// The run's options turned, once and before anything is sent, into what each module takes:
// the dataset's options, the request's shape and headers, the engine's options, the load
// points (one, or the values of a sweep) and, per point, the open-loop schedule's plan, the
// plan run_point() takes and the context the reports are written with. plan_run() (and a
// search's ProbePlanner) is the only reader of cli::RunOptions: every later stage reads the plan.
//
// The names, in the order a run meets them:
//   RunPlan      what the options say, before the server is contacted
//   PreparedRun  what contacting the server settled (model, per-chunk usage) and the prompts
//   LoadPoint    one load level: the single run or one value of a sweep
//   PointPlan    what run_point() takes for one LoadPoint (run_point.hpp; holds a DriverPlan)
//   PointResult  what run_point() returns (run_point.hpp)
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/app/plan/client_threads.hpp"
#include "bench/app/plan/shard_results.hpp"
#include "bench/app/plan/sweep_variable.hpp"
#include "bench/app/point/run_point.hpp"
#include "bench/app/point/server_spread.hpp"
#include "bench/app/server/server_identity.hpp"
#include "bench/app/server/target.hpp"
#include "bench/app/server/token_setup.hpp"
#include "bench/cli/options.hpp"
#include "bench/engine/engine.hpp"
#include "bench/gate/gate.hpp"
#include "bench/live/options.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/report/report.hpp"
#include "bench/results/compat.hpp"
#include "bench/results/writer.hpp"
#include "bench/schedule/load_mode.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/sim/sim_options.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/multi_turn.hpp"
#include "bench/workload/prompt.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::app {

/// One load level of a run: the single run, or one value of a sweep.
struct LoadPoint {
  std::int64_t concurrency = 0;             // requests in flight at most
  double rate_per_s = cli::kUnlimitedRate;  // offered load; infinity = closed loop
  // The point's stream of the prompt source: its own prompts, none sent by another point (or
  // repeat: repeat r of point p takes stream p + r x points, so repeat 0 is a single run's).
  std::uint64_t prompt_stream = 0;
  std::size_t repeat = 0;  // --repeat: which measurement of the load level, 0-based
  // --prefix-share: the share of each prompt its point's requests share (workload/
  // prefix_share.hpp); nullopt without the flag.
  std::optional<double> prefix_share = std::nullopt;
};

/// The load point of repeat `repeat` (0-based) of `point`, one of `points` in its run: its own
/// prompt stream, after every stream of the repeats before it.
LoadPoint repeat_of(const LoadPoint& point, std::size_t repeat, std::size_t points);

/// Where lengths are counted: found by bench when no --tokenizer is given (tokenizer_choice.hpp),
/// words (--tokenizer words), a tokenizer file, a Hugging Face repo id's tokenizer.json in the
/// hub cache, or the server's /tokenize (--tokenizer server).
enum class TokenizerSource { automatic, words, file, hub, server };

struct TokenizerPlan {
  TokenizerSource source = TokenizerSource::automatic;
  std::string name;  // --tokenizer as given: a file or a repo id ("server", "words" too)
  bool input_len_includes_template = false;  // chat: --input-len counts the template's tokens
};

/// How much each point sends and for how long (a trace's rows settled: --num-prompts is the
/// rows replayed after the warm-up's).
struct PointBounds {
  std::int64_t num_prompts = 0;  // measured requests (sessions with --multi-turn) unless timed
  std::int64_t warmup_requests = 0;
  double warmup_duration_s = 0;  // 0: warm up by count
  double duration_s = 0;         // measured phase, seconds; 0: bounded by num_prompts
  bool duration_hard = false;    // cancel what is in flight at the end of duration_s
  // --duration and --num-prompts both given (without --reuse-prompts): whichever comes first
  // ends the measured phase (GuideLLM's --max-seconds with --max-requests); false: duration_s
  // alone bounds a timed run.
  bool num_prompts_with_duration = false;

  /// Whether --duration bounds the measured phase (schedule::is_timed).
  bool timed() const { return schedule::is_timed(duration_s); }
  /// Whether num_prompts bounds the measured phase (no duration, or both given).
  bool counted() const { return !timed() || num_prompts_with_duration; }
};

/// The servers, and what bench asks of them beside the load: the options' asks as given
/// (--per-chunk-usage, --answer-check, --flush-cache, --server-metrics; metrics_urls as given,
/// server_metrics_urls reads them), and what the plan settles.
struct ServerPlan : cli::ServerAsks {
  std::vector<std::string> base_urls;  // empty: the embedded simulator with `sim`
  std::vector<std::int64_t> weights;   // --server-weights; empty: round robin
  sim::SimOptions sim;
  std::int64_t ready_timeout_ms = 0;    // --ready-timeout; 0: never wait (readiness.hpp)
  std::int64_t startup_timeout_ms = 0;  // --startup-timeout; 0: none (startup_fetch.hpp)
};

/// What the run prints and writes, and what it is held to: the options' as given, and
/// --json-compat read.
struct OutputPlan : cli::OutputOptions {
  std::optional<results::Compat> json_compat;  // --json-compat: a peer's view; none: bench's
};

/// What the options say, settled once before the server is contacted: the only thing the app
/// reads after parsing.
struct RunPlan {
  // count: requests of one point (warm-up included) when known, for a file dataset's share.
  workload::DatasetOptions dataset;
  std::int64_t input_len = 0;  // --input-len as given (words, or tokens with a tokenizer)
  TokenizerPlan tokenizer;
  workload::MultiTurnOptions multi_turn;
  bool reuse_prompts = false;  // --reuse-prompts
  // --reuse-prompts: request r of every point sends prompt r mod this of stream 0; 0 = fresh.
  // Each point's driver and feed carry it in their PromptPick (prompt_feed.hpp), which applies it.
  std::uint64_t reuse_prompts_modulo = 0;
  std::uint64_t seed = 0;
  // --images-per-request: the images of every chat request (per_request 0: none), and the
  // run's own nonce they are drawn from, new each run whatever --seed says, so a rerun never
  // sends an image a server's multimodal cache still holds.
  images::ImageSpec images;
  std::uint64_t image_nonce = 0;
  protocol::RequestOptions request;  // model and continuous_usage_stats: set by prepare
  // max_tokens of every request when one value holds for all: --output-len, or what
  // --extra-body sends in its place (max_completion_tokens or max_tokens).
  std::int64_t output_len = 0;
  bool output_len_from_extra_body = false;  // then every prompt's max_tokens is replaced by it
  std::vector<std::string> headers;         // every request's, the API key's included
  bool traceparent = true;       // a W3C traceparent of bench's own on each request (DriverPlan)
  engine::EngineOptions engine;  // concurrency: the point's, set by point_plan
  std::int64_t unreachable_timeout_ns = 0;  // --unreachable-timeout; 0 = never
  protocol::StreamLimits limits;            // --max-line-bytes, --max-response-bytes
  std::vector<LoadPoint> points;            // measured one after another, in this order
  bool concurrency_given = false;           // --concurrency was given (an open loop's cap)
  std::int64_t most_concurrency = 0;        // --concurrency's largest: the open files it needs
  SweepVariable sweep_variable = SweepVariable::none;  // what the points differ in
  std::size_t repeats = 1;                             // --repeat: measurements of each point
  PointBounds bounds;
  schedule::OpenLoopPlan arrivals;  // an open-loop point's, its rate aside (open_loop_plan)
  schedule::RampUp ramp;            // --ramp-up-* as given (arrivals hold it with a strategy)
  ShardPlan shard;
  std::optional<std::size_t> client_threads;  // --client-threads N; none: auto, per point
  std::int64_t preconnect = -1;               // connections opened before the epoch; -1: as needed
  metrics::Slo goodput;                       // --goodput's SLOs
  results::Accelerators accelerators;         // --gpus, --gpu-hour-price
  std::uint64_t latency_sample_budget = 0;
  ServerPlan server;
  OutputPlan output;
  live::LiveOptions live;  // --metrics-listen, --live-jsonl (docs/live-metrics.md)
  // Said as given, once: the results' config (cli::options_to_json), the workload's definition
  // (its fingerprint's input) and the start-up line's load.
  nlohmann::json config;
  nlohmann::json workload;
  std::string load_line;
  // Loads the plan cannot produce, said at start (one line each): a closed loop whose
  // --concurrency exceeds the measured requests it sends (results/load_warning.hpp says it again
  // in the results).
  std::vector<std::string> load_warnings;
  // Peers' flags a run accepts that do nothing here, said at start (one line each).
  std::vector<std::string> flag_notes;
};

/// The whole planning step: the options, a trace's rows read to settle --num-prompts (so
/// --dataset trace reads its file here, and throws workload::DatasetError when it cannot, or
/// std::invalid_argument when the warm-up leaves no row to measure), and every stage's plan.
RunPlan plan_run(const cli::RunOptions& options);

/// A concurrency probe's fewest measured requests, in waves of its concurrency: the first
/// opens, the last drains, and those between are its steady state.
inline constexpr std::int64_t kProbeWaves = 4;
/// A rate probe's shortest schedule, seconds of arrivals: long enough for a server's queue to
/// settle at the rate rather than be judged on its first burst.
inline constexpr double kProbeRateSeconds = 10;

/// `bench search`'s planning step: the plan of its probe at a load (a concurrency, or requests/s
/// with --over rate): the run's options with the searched variable set, sized by its load
/// (kProbeWaves, kProbeRateSeconds) when --num-prompts is less, and, unless --warmup-* was
/// given, one wave of warm-up; and the workload the search as a whole records.
class ProbePlanner {
 public:
  ProbePlanner(const cli::RunOptions& options, const cli::SearchOptions& search);
  RunPlan at(double load) const;
  /// The requests' definition without the loads (the search chose those): two searches of one
  /// workload share a fingerprint whatever loads they probed.
  const nlohmann::json& workload() const { return workload_; }

 private:
  cli::RunOptions options_;
  cli::SearchOptions search_;
  nlohmann::json workload_;
};

/// What contacting the server settled, and the prompt source every point draws from.
struct PreparedRun {
  Target target;  // the server (and the embedded one, if started)
  // The endpoint's full URL on each server, in their order (the first is asked what the run
  // needs of one server), and with several which one each request goes to (null with one).
  // On the heap: drivers keep its address.
  std::vector<std::string> urls;
  std::shared_ptr<const ServerSpread> spread;
  protocol::RequestOptions request;  // the plan's, with the model and per-chunk usage
  std::unique_ptr<workload::PromptSource> prompts;  // every request's prompt, made on demand
  // What counts lengths (null: words), and on chat the template's measured tokens.
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;
  // Why lengths are words when `tokenizer` is null (tokenizer_choice.hpp), said at start and
  // recorded; empty with a tokenizer. tokenizer_none_found: one was looked for, none was had.
  std::string words_reason;
  bool tokenizer_none_found = false;
  std::optional<TemplateOverhead> template_overhead;
  // Hides the credentials in every server text bench keeps. On the heap: the server's tokenizer
  // and the point drivers keep its address, and a PreparedRun is moved after they take it.
  std::shared_ptr<const util::Redactor> redactor = std::make_shared<const util::Redactor>();
  ServerIdentity server;  // what the server says of itself (server_identity.hpp)
  // The answer check's block (results/answer_check.hpp), made before the run; null when off.
  nlohmann::json answer_check = nullptr;
};

/// Whether `point` runs an open loop (schedule::is_open_loop: its rate, the run's ramp, a
/// trace's arrivals): every stage after the plan asks this, never the rate itself.
bool open_loop(const RunPlan& plan, const LoadPoint& point);

/// The open-loop schedule's plan of a point at `rate_per_s` (infinity and no ramp: a closed
/// loop, for which schedule::build_open_loop_schedule gives nothing).
schedule::OpenLoopPlan open_loop_plan(const RunPlan& plan, double rate_per_s);

/// Whether the run's prompt lengths are tokens (random-ids; random, sharegpt and jsonl with
/// --tokenizer) rather than words (shared-prefix always; every dataset without a tokenizer).
bool lengths_in_tokens(const RunPlan& plan, const PreparedRun& prepared);

/// Why they are words (said at start, and the results' words_reason); empty when tokens.
std::string words_reason(const RunPlan& plan, const PreparedRun& prepared);

/// What run_point() takes for `point`. Pointers refer into `plan`, `prepared` and `schedule`
/// (the point's arrivals, given exactly when open_loop(plan, point)), which must outlive the
/// run of the point. `log` and `live` are left
/// null for the caller.
PointPlan point_plan(const RunPlan& plan, const PreparedRun& prepared, const LoadPoint& point,
                     const schedule::OpenLoopSchedule* schedule);

/// The event loops `point` runs (its shard's share with --shard): --client-threads N (at most
/// one a stream), or auto's choice from the point's expected load (client_threads.hpp).
ClientThreadsChoice client_threads_of(const RunPlan& plan, const PreparedRun& prepared,
                                      const LoadPoint& point);

/// The start-up line on the loops: the choice, or with auto over a sweep whose points differ,
/// the range and the heaviest point's reason.
std::string describe_client_threads(const RunPlan& plan, const PreparedRun& prepared);

/// Shard `shard`'s part of `total` (a concurrency, the connections to open) split over
/// `shards`: total / shards each, and one more for each of the first total % shards shards.
std::int64_t shard_share(std::int64_t total, std::size_t shards, std::size_t shard);

/// The report's context of a point, before it runs (started_at, interrupted and the client
/// check are the run's to fill).
results::RunContext point_context(const RunPlan& plan, const PreparedRun& prepared,
                                  const LoadPoint& point);

/// A point's value on the sweep's axis, as the results' sweep lists it: its concurrency, its
/// rate (16 or "inf"), or its prefix share; null for a single run.
nlohmann::json sweep_value(const RunPlan& plan, const LoadPoint& point);

/// A point's label in a sweep: {"concurrency": 8}, {"request_rate": 16 | "inf"} or
/// {"prefix_share": 0.5}; the progress line's "c=8" / "rate=16" / "prefix share=0.5"; both
/// empty for a single run. With --repeat N > 1 both
/// also say the repeat: {"concurrency": 8, "repeat": 2}, "c=8 repeat 2/3" (1-based).
nlohmann::json point_label(const RunPlan& plan, const LoadPoint& point);
std::string point_label_text(const RunPlan& plan, const LoadPoint& point);

}  // namespace bench::app
