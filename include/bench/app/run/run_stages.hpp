#pragma once
// The stages of a run that run_benchmark (run_benchmark.cpp) and run_search (run_search.cpp)
// share, each defined in the file of its concern: preparing a run (prepare_run.cpp), measuring
// a point with its repeats (measure_point.cpp), and the results' services and files
// (run_benchmark.cpp). The run wing's, shared with the search wing (search/run_search.cpp).
#include <atomic>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/app/plan/run_plan.hpp"
#include "bench/app/point/record_log.hpp"
#include "bench/app/run/results_checkpoint.hpp"
#include "bench/app/server/cache_flush.hpp"
#include "bench/app/server/server_identity.hpp"
#include "bench/app/server/server_metrics_scrape.hpp"
#include "bench/gate/gate.hpp"
#include "bench/live/session.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

// One point's figures, as reported: its results object, and what the text report is made of.
struct PointReport {
  nlohmann::json results;
  metrics::RunSummary summary;
  results::RunContext context;
  std::string stopped_early;  // PointResult::stopped_early
  // --repeat N > 1: each measurement of the point; `results` then combines them
  // (results/repeats.hpp) and `summary` and `context` are the first repeat's.
  std::vector<PointReport> repeats;
};

// What each measurement of a point uses beside the plan; each may be null.
struct PointTools {
  RecordLog* log;
  ServerMetricsScraper* scraper;
  CacheFlush* flush;
  live::Session* live;            // --metrics-listen, --live-jsonl; or null
  ResultsCheckpoint* checkpoint;  // --output-file's checkpoints; or null
};

// What every measurement of a run uses beside the plan, each only when asked for: the request
// log (--save-requests), the cache flush (--flush-cache), the metrics scraper (--server-metrics).
struct RunServices {
  std::unique_ptr<RecordLog> log;
  std::optional<CacheFlush> flush;
  std::optional<ServerMetricsScraper> scraper;
  std::unique_ptr<live::Session> live;
  std::unique_ptr<ResultsCheckpoint> checkpoint;  // a run's (not a search's) --output-file
  PointTools tools() {
    return {log.get(), scraper ? &*scraper : nullptr, flush ? &*flush : nullptr, live.get(),
            checkpoint.get()};
  }
};

// --metrics-listen and --live-jsonl: opened before anything is sent, so a port in use is a
// usage error at once (said on `err`; false then). Says where the metrics are served.
bool open_live(const RunPlan& plan, RunServices& services, std::ostream& err);

// False when the request log cannot be created (said on `err`).
bool open_services(const RunPlan& plan, PreparedRun& prepared, RunServices& services,
                   std::ostream& err);

// Prepare, mapping what stops a run before it starts to its exit code.
std::optional<PreparedRun> plan_and_prepare(const RunPlan& plan, int& failure_code,
                                            std::ostream& err);

// The run's longest request: for the random datasets, the top of --range-ratio's range of
// input and output lengths (and the chat template's tokens when --input-len leaves them out);
// for the others, the prompt source's longest request (longest_request.hpp) with the chat
// template's tokens on top; longest_prompt 0 where it is not known before it is drawn.
ContextFit context_fit_of(const RunPlan& plan, const PreparedRun& prepared);

// The point measured plan.repeats times, one measurement after another (the path of every
// measurement), each repeat with its own prompts: repeat r takes the point's stream plus r x
// `stream_stride` (the run's points, or a search's most probes); with one, the point's report.
PointReport measure_repeated(const RunPlan& plan, const PreparedRun& prepared,
                             const LoadPoint& point, const PointTools& tools,
                             std::size_t stream_stride, const StopFlag& stop, std::ostream& err);

// What a results object (a run, a sweep point, a sweep) records of its workload (`definition`,
// the plan's or a search's), over its load `points`, and of --flush-cache (results/workload.hpp).
void stamp_workload(nlohmann::json& results, const RunPlan& plan, const nlohmann::json& definition,
                    const std::vector<LoadPoint>& points, const CacheFlush* flush);

// A sweep's results object over the points measured so far (`points`, in the plan's order): the
// run's at its end, and a checkpoint's while it goes on (results_checkpoint.hpp).
nlohmann::json sweep_results(const RunPlan& plan, const std::vector<nlohmann::json>& points);

// The JSON as written for scripts: bench's keys, or a peer's view with --json-compat.
nlohmann::json results_for_scripts(const OutputPlan& output, const nlohmann::json& object);

// The run's results: one point's object, or the sweep's, gated.
struct RunResults {
  std::vector<PointReport> points;
  nlohmann::json results;  // null when no point was measured
  gate::GateOutcome gates;
  bool interrupted = false;
};

// The results files; false when one could not be written (said on `err`).
bool write_files(const OutputPlan& output, const RunResults& run, RecordLog* log,
                 std::ostream& err);

}  // namespace bench::app
