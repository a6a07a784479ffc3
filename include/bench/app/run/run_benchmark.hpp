#pragma once
// A whole benchmark run, from options to report: start the embedded server when no URL is
// given, find the model, probe for per-chunk usage, send the warm-up and measured phases,
// summarize, print and write the results. Returns the process exit code (cli/exit_codes.hpp).
#include <atomic>
#include <ostream>

#include "bench/cli/options.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

/// `stop` is told when the measured phase begins (before it, a signal ends the process). It is
/// set by the first SIGINT/SIGTERM after that: no new request starts, in-flight ones get the
/// grace period (none when the stop is forced), and the partial results are still reported and
/// written, marked interrupted.
int run_benchmark(const cli::RunOptions& options, StopFlag& stop, std::ostream& out,
                  std::ostream& err);

}  // namespace bench::app
