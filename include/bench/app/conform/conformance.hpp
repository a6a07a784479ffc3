#pragma once
// `bench conformance`: a short fixed battery against one server (the embedded simulator when no
// --base-url is given), each check one row of a table saying whether what bench relies on holds,
// every exchange recorded through `bench record`'s proxy into a directory that can be attached to
// a bug report and dropped into tests/data/wire as is (docs/usage.md, docs/wire-corpus.md).
#include <ostream>

#include "bench/cli/options.hpp"

namespace bench::app {

/// Runs the battery: the table on `out`, what it does on `err`. Returns 0 when every check holds
/// or cannot be shown, 4 (cli::kExitGateFailed) when one does not hold, 2 for an output
/// directory that cannot be made, 3 when the server cannot be reached or names no model.
int run_conformance(const cli::ConformanceOptions& options, std::ostream& out, std::ostream& err);

}  // namespace bench::app
