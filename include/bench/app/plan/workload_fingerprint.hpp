#pragma once
// The workload's fingerprint: a hash of what defines the requests a run sends and when, so
// two results can be told apart when they did not measure the same workload. It covers the
// dataset and its parameters (a file dataset by its size and contents, not its name), the
// endpoint, max_tokens, ignore_eos, temperature, the extra body, the load shape and the prompt
// generator's version (workload/generator_version.hpp). Not the seed: another seed draws the
// same workload. Not the server, the model or the client's limits: those are the measured
// system and its settings, which compare checks on their own.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/app/plan/run_plan.hpp"
#include "bench/cli/options.hpp"

namespace bench::app {

/// The run's definition, load points aside, as canonical JSON (keys sorted). Reads a dataset
/// file to hash it; an unreadable one is hashed as absent (the run then fails on it anyway).
nlohmann::json workload_definition(const cli::RunOptions& options);

/// 16 hex digits of FNV-1a 64 over `definition` and the load `points` (one point's for a run
/// or sweep point, all of them for a sweep as a whole).
std::string workload_fingerprint(const nlohmann::json& definition,
                                 const std::vector<LoadPoint>& points);

}  // namespace bench::app
