#pragma once
// A point's figures so far, while it runs: each client thread publishes its accumulator's state
// every kCheckpointEveryNs and once more after a stop is asked (from its own loop, as a request
// ends, so no lock is taken on any other path), and this thread merges the latest of each and
// hands the summary on, as often and once more a moment after a stop is asked. So a run killed
// before it can write its results (a CI runner's SIGKILL after its grace) leaves a recent
// checkpoint (run/results_checkpoint.hpp).
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

/// How often a checkpoint is taken: "every few seconds" (issue 43), a copy of the states that
/// costs the loops little.
inline constexpr std::int64_t kCheckpointEveryNs = 2 * kNsPerSec;

class PointCheckpoints {
 public:
  /// The client threads' latest published states.
  using Gather = std::function<std::vector<metrics::AccumulatorState>()>;
  /// Takes the merged figures; called on this object's thread.
  using Hand = std::function<void(metrics::RunSummary)>;

  PointCheckpoints(metrics::SummaryOptions options, const StopFlag& stop, Gather gather, Hand hand);
  /// Stops the thread (no checkpoint after it: the point's own results follow).
  ~PointCheckpoints();
  PointCheckpoints(const PointCheckpoints&) = delete;
  PointCheckpoints& operator=(const PointCheckpoints&) = delete;

 private:
  void run();
  void take();

  metrics::SummaryOptions options_;
  const StopFlag& stop_;
  Gather gather_;
  Hand hand_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace bench::app
