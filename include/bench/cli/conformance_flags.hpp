#pragma once
// `bench conformance`'s flags: the server, its credentials and where the archive goes.
#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Adds the `conformance` subcommand to `app`, bound to `options`.
CLI::App* setup_conformance_flags(CLI::App& app, ConformanceOptions& options);

/// Checks what CLI11 cannot: the URL (made like a run's, without a trailing /v1), the headers,
/// no CR or LF in the key or the model. Throws UsageError naming the flag.
void finish_conformance_flags(ConformanceOptions& options);

}  // namespace bench::cli
