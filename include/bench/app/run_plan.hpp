#pragma once
// The run's options turned, once and before anything is sent, into what each module takes:
// the dataset's options, the request's shape and headers, the engine's options, the load
// points (one, or the values of a sweep) and, per point, the open-loop schedule's plan, the
// plan run_point() takes and the context the reports are written with.
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

#include "bench/app/client_threads.hpp"
#include "bench/app/run_point.hpp"
#include "bench/app/server_identity.hpp"
#include "bench/app/server_spread.hpp"
#include "bench/app/sweep_variable.hpp"
#include "bench/app/target.hpp"
#include "bench/app/token_setup.hpp"
#include "bench/cli/options.hpp"
#include "bench/engine/engine.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/report/report.hpp"
#include "bench/schedule/open_loop.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::app {

/// One load level of a run: the single run, or one value of a sweep.
struct LoadPoint {
  std::int64_t concurrency = 0;                // requests in flight at most
  double rate_per_s = cli::kUnlimitedRate;     // offered load; infinity = closed loop
  // The point's stream of the prompt source: its own prompts, none sent by another point (or
  // repeat: repeat r of point p takes stream p + r x points, so repeat 0 is a single run's).
  std::uint64_t prompt_stream = 0;
  std::size_t repeat = 0;  // --repeat: which measurement of the load level, 0-based
};

/// The load point of repeat `repeat` (0-based) of `point`, one of `points` in its run: its own
/// prompt stream, after every stream of the repeats before it.
LoadPoint repeat_of(const LoadPoint& point, std::size_t repeat, std::size_t points);

struct RunPlan {
  // count: requests of one point (warm-up included) when known, for a file dataset's share.
  workload::DatasetOptions dataset;
  // --reuse-prompts: request r of every point sends prompt r mod this of stream 0; 0 = fresh.
  std::uint64_t reuse_prompts_modulo = 0;
  protocol::RequestOptions request;   // model and continuous_usage_stats: set by prepare
  // max_tokens of every request when one value holds for all: --output-len, or what
  // --extra-body sends in its place (max_completion_tokens or max_tokens).
  std::int64_t output_len = 0;
  bool output_len_from_extra_body = false;  // then every prompt's max_tokens is replaced by it
  std::vector<std::string> headers;   // every request's, the API key's included
  engine::EngineOptions engine;       // concurrency: the point's, set by point_plan
  protocol::StreamLimits limits;      // --max-line-bytes, --max-response-bytes
  std::vector<LoadPoint> points;      // measured one after another, in this order
  SweepVariable sweep_variable = SweepVariable::none;  // what the points differ in
  std::size_t repeats = 1;  // --repeat: measurements of each point
};

RunPlan plan_run(const cli::RunOptions& options);

/// What contacting the server settled, and the prompt source every point draws from.
struct PreparedRun {
  Target target;                         // the server (and the embedded one, if started)
  std::string url;                       // the endpoint's full URL (on the first server)
  // Several servers (--base-url repeated): the endpoint's full URL on each, in their order, and
  // which one each request goes to; urls holds url alone and spread is null with one server.
  // On the heap: drivers keep its address.
  std::vector<std::string> urls;
  std::shared_ptr<const ServerSpread> spread;
  protocol::RequestOptions request;      // the plan's, with the model and per-chunk usage
  std::unique_ptr<workload::PromptSource> prompts;  // every request's prompt, made on demand
  // --tokenizer: what counts lengths (null: words), and on chat the template's measured tokens.
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;
  std::optional<TemplateOverhead> template_overhead;
  // Hides the credentials in every server text bench keeps. On the heap: the server's tokenizer
  // and the request drivers keep its address, and a PreparedRun is moved after they take it.
  std::shared_ptr<const util::Redactor> redactor = std::make_shared<const util::Redactor>();
  ServerIdentity server;    // what the server says of itself (server_identity.hpp)
  // The answer check's block (results/answer_check.hpp), made before the run; null when off.
  nlohmann::json answer_check = nullptr;
};

/// The open-loop schedule's plan of a point at `rate_per_s` (infinity and no ramp: a closed
/// loop, for which schedule::build_open_loop_schedule gives nothing).
schedule::OpenLoopPlan open_loop_plan(const cli::RunOptions& options, double rate_per_s);

/// --dataset trace: the measured requests are the rows replayed after the warm-up's (at most
/// --num-prompts), set in `options.num_prompts` once the trace is read. Nothing for another
/// dataset. Throws std::invalid_argument when the warm-up leaves no row to measure.
void settle_trace_requests(cli::RunOptions& options, const workload::PromptSource& prompts);

/// Whether the run's prompt lengths are tokens (random-ids; random, sharegpt and jsonl with
/// --tokenizer) rather than words (shared-prefix always; every dataset without a tokenizer).
bool lengths_in_tokens(const cli::RunOptions& options, const PreparedRun& prepared);

/// What run_point() takes for `point`. Pointers refer into `plan`, `prepared` and `schedule`
/// (null: a closed loop), which must outlive the run of the point. `log` and `live` are left
/// null for the caller.
PointPlan point_plan(const cli::RunOptions& options, const RunPlan& plan,
                     const PreparedRun& prepared, const LoadPoint& point,
                     const schedule::OpenLoopSchedule* schedule);

/// The event loops `point` runs (its shard's share with --shard): --client-threads N (at most
/// one a stream), or auto's choice from the point's expected load (client_threads.hpp).
ClientThreadsChoice client_threads_of(const cli::RunOptions& options, const RunPlan& plan,
                                      const PreparedRun& prepared, const LoadPoint& point);

/// The start-up line on the loops: the choice, or with auto over a sweep whose points differ,
/// the range and the heaviest point's reason.
std::string describe_client_threads(const cli::RunOptions& options, const RunPlan& plan,
                                    const PreparedRun& prepared);

/// Shard `shard`'s part of `total` (a concurrency, the connections to open) split over
/// `shards`: total / shards each, and one more for each of the first total % shards shards.
std::int64_t shard_share(std::int64_t total, std::size_t shards, std::size_t shard);

/// The report's context of a point, before it runs (started_at, interrupted and the client
/// check are the run's to fill).
report::RunContext point_context(const cli::RunOptions& options, const RunPlan& plan,
                                 const PreparedRun& prepared, const LoadPoint& point);

/// A point's label in a sweep: {"concurrency": 8} or {"request_rate": 16 | "inf"}; the
/// progress line's "c=8" / "rate=16"; both empty for a single run. With --repeat N > 1 both
/// also say the repeat: {"concurrency": 8, "repeat": 2}, "c=8 repeat 2/3" (1-based).
nlohmann::json point_label(const RunPlan& plan, const LoadPoint& point);
std::string point_label_text(const RunPlan& plan, const LoadPoint& point);

}  // namespace bench::app
