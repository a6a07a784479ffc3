#pragma once
// The subcommands that work on saved results files, beside the run itself (run_benchmark.hpp):
// `bench compare BASE.json NEW.json` and `bench report RESULTS.json -o REPORT.html`.
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// Prints the comparison (text or JSON) on `out`, warnings on `err`. Returns 0, 4 when a
/// regression passed --fail-on-regression, 2 when a file is not a results file.
int run_compare(const cli::CompareOptions& options, std::ostream& out, std::ostream& err);

/// Writes the HTML report of a results file (atomically). Returns 0, 2 for an unusable results
/// file, 3 when the report cannot be written.
int run_report(const cli::ReportOptions& options, std::ostream& err);

}  // namespace bench::app
