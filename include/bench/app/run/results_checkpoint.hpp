#pragma once
// --output-file while the run goes on: a checkpoint of the results so far, written whole (the
// atomic writer) every few seconds and a moment after a stop is asked
// (point/point_checkpoints.hpp), marked "partial": true and "interrupted": true. The run's own
// results replace it when the run ends, interrupted or not; a run killed first (SIGKILL after a CI
// runner's grace, timeout -k) leaves it. A sweep's checkpoint holds its finished points and the
// current one so far. Only a file that is replaced whole takes checkpoints: a FIFO, device or
// descriptor gets the results once (util/output_target.hpp).
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/app/plan/run_plan.hpp"

namespace bench::app {

class ResultsCheckpoint {
 public:
  /// Whether `plan`'s --output-file takes checkpoints.
  static bool wanted(const RunPlan& plan);
  explicit ResultsCheckpoint(const RunPlan& plan) : plan_(plan) {}

  /// A sweep's point is done: its results are in every later checkpoint.
  void point_done(const nlohmann::json& point);
  /// Writes the checkpoint with `point`, the current point's results so far. Never throws (it
  /// runs on the checkpoint thread): a failed write is left to the run's own write to report.
  void write(nlohmann::json point) noexcept;

 private:
  const RunPlan& plan_;
  std::mutex mutex_;
  std::vector<nlohmann::json> done_;  // a sweep's finished points
};

}  // namespace bench::app
