#pragma once
#include <ostream>

#include "bench/cli/options.hpp"
#include "bench/results/read_file.hpp"

namespace bench::app {

/// Prints (text or JSON) each --as tool's figures recomputed from --requests' log beside the
/// run's own. Returns 0, or 2 after one line on `err` (a sweep, no log, an unknown tool, a log
/// that is not one).
int print_peer_views(const cli::ReportOptions& options, const results::ResultsFile& file,
                     std::ostream& out, std::ostream& err);

}  // namespace bench::app
