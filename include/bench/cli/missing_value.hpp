#pragma once
// A usage error for what the command line left out, in bench's words: CLI11 says "shell is
// required" or "--num-prompts: 1 required INT:INT in [1 - 1000000000] missing".
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace bench::cli {

/// For CLI11's error of a required positional argument that is absent, or of a flag given
/// without its value: one line that names what is missing and the value it takes ("bench
/// compare: missing base and new (usage: bench compare [OPTIONS] base new)", "--num-prompts:
/// give it a value: N"). nullopt for any other error.
std::optional<std::string> missing_value_message(const CLI::App& command,
                                                 const CLI::ParseError& error);

}  // namespace bench::cli
