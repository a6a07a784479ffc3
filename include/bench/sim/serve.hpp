#pragma once
// `bench serve-sim`: the embedded server in the foreground, until SIGINT/SIGTERM.
#include <atomic>

#include "bench/sim/sim_options.hpp"

namespace bench::sim {

/// Serves until `stop` becomes true. Returns the process exit code: 0 after a clean stop, 3 when
/// the server cannot start (the address is taken, the trace file cannot be created).
int run_serve_sim(const SimOptions& options, const std::atomic<bool>& stop);

}  // namespace bench::sim
