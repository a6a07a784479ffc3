#pragma once
// `bench certify`'s flags: the run's request log, the server's truth log, the share of a figure
// its error bound may reach before it is flagged, and the output format.
#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Adds the `certify` subcommand to `app`, bound to `options`.
CLI::App* setup_certify_flags(CLI::App& app, CertifyOptions& options);

}  // namespace bench::cli
