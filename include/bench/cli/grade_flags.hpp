#pragma once
// `bench grade`'s flags: the embedded server's
// (--sim-X), where the client writes its results, its time limit, and the client's command line
// after `--`.
#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Adds the `grade` subcommand to `app`, bound to `options`.
CLI::App* setup_grade_flags(CLI::App& app, GradeOptions& options);

/// Checks what CLI11 cannot: a command is given, and says where its results go ({results} in
/// it, or --results). Throws UsageError naming what is missing.
void finish_grade_flags(GradeOptions& options);

}  // namespace bench::cli
