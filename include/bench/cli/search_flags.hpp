#pragma once
// The flags of `bench search` beside the run's own (--slo, --over, --start, --max,
// --resolution, --max-time), and their validation.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Flag values kept as text until finish_search_flags.
struct RawSearchFlags {
  std::vector<std::string> slos;
  std::string resolution = "5%";
  std::string max_time;
  std::string min_goodput;
};

void setup_search_flags(CLI::App& command, SearchOptions& search, RawSearchFlags& raw);

/// Converts the raw values and applies the search to `run`: the searched variable's own flag is
/// refused (the search sets it). Throws UsageError naming the flag and the value.
void finish_search_flags(const CLI::App& command, SearchOptions& search, const RawSearchFlags& raw,
                         RunOptions& run);

}  // namespace bench::cli
