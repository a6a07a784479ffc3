#pragma once
// The embedded server's flags, in one place for its two front doors: `bench serve-sim --X` and
// `bench --sim-X` (the embedded target when no --base-url is given).
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "bench/sim/sim_options.hpp"

namespace bench::cli {

/// The group of a run's --sim-* flags. A run's --help shows its heading and the one line below
/// instead of some sixty flags: `bench serve-sim --help` lists them, each in its own spelling.
inline constexpr std::string_view kEmbeddedServerGroup =
    "Embedded simulated server (started when no --base-url is given)";
inline constexpr std::string_view kEmbeddedServerPointer =
    "Each flag --X of `bench serve-sim --help` is --sim-X here: --sim-ttft-ms 5, --sim-profile "
    "tiny";

/// The simulator's behaviour flags (profile and its parameters, time scale, faults, dialect,
/// seed, trace), each named `prefix` + its name. Flags that apply to some profiles only are
/// refused with the others, naming `prefix` + "profile".
void add_sim_flags(CLI::App& app, sim::SimOptions& sim, const std::string& prefix);

/// Everything `bench serve-sim` accepts: listen address, model, and add_sim_flags("--").
void setup_serve_sim_flags(CLI::App& command, sim::SimOptions& sim);

}  // namespace bench::cli
