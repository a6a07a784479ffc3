#pragma once
// `bench serve-sim`: the embedded server in the foreground, until SIGINT/SIGTERM.
#include <atomic>

#include "bench/sim/sim_options.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::sim {

/// Serves until `stop` becomes true. Returns the process exit code: 0 after a clean stop, 2 when
/// `open_tokenizer` refuses options.tokenizer_path, 3 when the server cannot start (the address
/// is taken, the trace file cannot be created).
int run_serve_sim(SimOptions options, const StopFlag& stop, const TokenizerFactory& open_tokenizer);

}  // namespace bench::sim
