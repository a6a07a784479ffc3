#pragma once
// Shell completion scripts written from the command line's own CLI11 definitions, the ones
// --help prints: a new flag or subcommand completes with no second edit. `bench completion
// bash|zsh` prints one; the build writes the bash one for installing (CMakeLists.txt).
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace bench::cli {

/// A completion script for `shell` ("bash" or "zsh") of every flag and subcommand of `app` that
/// --help shows or names in a group's one line (the --sim-* flags); hidden ones, group "", are
/// left out. After a flag that takes a value, and for positional arguments, the shell completes
/// file names.
std::string completion_script(const CLI::App& app, std::string_view shell);

}  // namespace bench::cli
