#pragma once
// The subcommands that work on saved results files, beside the run itself (run_benchmark.hpp):
// `bench compare BASE.json NEW.json`, `bench report RESULTS.json -o REPORT.html`,
// `bench export RESULTS.json --format llm-d-report` and `bench merge SHARD.json... -o MERGED.json`.
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// Prints the comparison (text or JSON) on `out`, warnings on `err`. Returns 0, 4 when a
/// regression passed --fail-on-regression, 2 when a file is not a results file.
int run_compare(const cli::CompareOptions& options, std::ostream& out, std::ostream& err);

/// Writes the HTML report of a results file (atomically) when -o is given, and with --as prints
/// on `out` what other tools would have printed for the run (peer_report.hpp). Returns 0, 2 for
/// an unusable results file or log, 3 when the report cannot be written.
int run_report(const cli::ReportOptions& options, std::ostream& out, std::ostream& err);

/// Writes a results file in another tool's format (results/llmd_report.hpp) to -o (atomically)
/// or `out`. Returns 0, 2 for an unusable results file or a --point it lacks, 3 when the file
/// cannot be written.
int run_export(const cli::ExportOptions& options, std::ostream& out, std::ostream& err);

/// Merges shards' results files (merge/merge.hpp): the report on `out` (text, JSON or CSV), the
/// merged JSON written (atomically) to -o, warnings on `err`. Returns 0; 2 when the files cannot
/// be merged (one line naming the file, nothing written); 3 when the output cannot be written.
int run_merge(const cli::MergeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace bench::app
