#pragma once
// A whole benchmark run, from options to report: start the embedded server when no URL is
// given, find the model, probe for per-chunk usage, send the warm-up and measured phases,
// summarize, print and write the results. Returns the process exit code (cli/exit_codes.hpp).
#include <atomic>
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// `stop` becomes true on the first SIGINT/SIGTERM: no new request starts, in-flight ones get
/// the grace period, and the partial results are still reported and written.
int run_benchmark(const cli::RunOptions& options, const std::atomic<bool>& stop, std::ostream& out,
                  std::ostream& err);

}  // namespace bench::app
