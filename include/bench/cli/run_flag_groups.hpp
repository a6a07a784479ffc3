#pragma once
// setup_run_flags (run_flags.hpp) by topic, each group in its own file; the order they are
// added in is the order --help lists them.
#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"
#include "bench/cli/run_flags.hpp"

namespace bench::cli {

/// --concurrency, --request-rate and the arrival shape, ramps, --num-prompts, --duration,
/// warm-up (load_flags.cpp).
void add_load_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// --dataset and its files, trace, multi-turn and tool flags, lengths, tokenizer, sampling
/// settings, --seed, --reuse-prompts (workload_flags.cpp).
void add_workload_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// --goodput, gates, --repeat, --output-format and the files written, --gpus and its price
/// (results_flags.cpp).
void add_results_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

}  // namespace bench::cli
