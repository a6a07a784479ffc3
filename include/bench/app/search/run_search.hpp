#pragma once
// `bench search`: the largest load meeting every SLO, found by probing (search/load_search.hpp).
#include <atomic>
#include <ostream>

#include "bench/cli/options.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::app {

/// `bench search`: probes (each a run point through the same path as run_benchmark's, with
/// --repeat honoured) chosen by LoadSearch (load_search.hpp) until the largest load meeting
/// every SLO is found. Exit 0 with an answer, 4 when even the first probe fails the SLOs, 130
/// when interrupted, 2 and 3 as run_benchmark. `stop` as run_benchmark's.
int run_search(const cli::RunOptions& options, const cli::SearchOptions& search, StopFlag& stop,
               std::ostream& out, std::ostream& err);

}  // namespace bench::app
