#pragma once
// A progress line on stderr while a point runs, refreshed a few times a second from the
// LiveCounters (relaxed atomics: the engine never waits for it). Shown only when stderr is a
// terminal, never with --quiet, and erased when the point ends so the report stays clean.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "bench/app/point/live_counters.hpp"

namespace bench::app {

struct ProgressPlan {
  std::string label;                // "c=64" or "rate=16", for sweeps
  std::int64_t total_requests = 0;  // warm-up + measured; 0 when bounded by time
  double duration_s = 0;            // warm-up + measured time when bounded by time, else 0
};

class Progress {
 public:
  /// Starts the refresher thread; `out` is where the line goes (stderr).
  Progress(std::ostream& out, const LiveCounters& live, ProgressPlan plan);
  /// Stops it and erases the line.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// The line for the counters now, `elapsed_s` into the point (public for tests).
  std::string line(double elapsed_s);

 private:
  void run();

  std::ostream& out_;
  const LiveCounters& live_;
  ProgressPlan plan_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  // The previous sample, for rates over the last refresh interval.
  double last_s_ = 0;
  std::int64_t last_chunks_ = 0;
  std::int64_t last_input_tokens_ = 0;
  double output_rate_ = 0, input_rate_ = 0;
  std::thread thread_;
};

/// Whether progress should be shown: stderr is a terminal and the user did not ask for quiet.
bool progress_wanted(bool quiet);

}  // namespace bench::app
