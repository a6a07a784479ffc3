#pragma once
// "did you mean": what a command line's unknown flag most likely was, from the flags the command
// it was given to declares.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace bench::cli {

/// For an argument CLI11 did not expect: the first argument of argv that looks like a long flag
/// (--name or --name=value) and is none of `command`'s flags (nor, for a subcommand, its
/// parent's), said as "unknown flag --concurency (did you mean --concurrency?)", the suggestion
/// only when one is close. nullopt when every flag-like argument is known (a stray value).
std::optional<std::string> unknown_flag_message(const CLI::App& command, int argc,
                                                const char* const* argv);

}  // namespace bench::cli
