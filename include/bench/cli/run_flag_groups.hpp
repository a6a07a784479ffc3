#pragma once
// setup_run_flags (run_flags.hpp) by topic, each group in its own file; the order they are
// added in is the order --help lists them.
#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"
#include "bench/cli/run_flags.hpp"

namespace bench::cli {

/// While it lives, a flag added to `app` without a group of its own is listed by --help under
/// `name` (CLI11's option_defaults), so the run's flags read by topic as h2load's do; the group
/// before it comes back after (CLI11 copies it into every subcommand added later).
class FlagGroup {
 public:
  FlagGroup(CLI::App& app, std::string name)
      : app_(app), previous_(app.option_defaults()->get_group()) {
    app.option_defaults()->group(std::move(name));
  }
  ~FlagGroup() { app_.option_defaults()->group(previous_); }
  FlagGroup(const FlagGroup&) = delete;
  FlagGroup& operator=(const FlagGroup&) = delete;

 private:
  CLI::App& app_;
  std::string previous_;
};

/// --concurrency, --request-rate and the arrival shape, ramps, --num-prompts, --duration,
/// warm-up (load_flags.cpp).
void add_load_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// --dataset and its files, trace, multi-turn and tool flags, lengths, tokenizer, sampling
/// settings, --seed, --reuse-prompts (workload_flags.cpp).
void add_workload_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// --goodput, gates, --repeat, --output-format and the files written, --gpus and its price
/// (results_flags.cpp).
void add_results_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// vLLM's result-file flags: --save-result, --save-detailed, --append-result, --result-dir,
/// --result-filename, --label, --metadata, --percentile-metrics, --metric-percentiles
/// (peer_result_flags.cpp).
void add_peer_result_flags(CLI::App& app, results::PeerResultOptions& peer);

}  // namespace bench::cli
