#pragma once
// The simulator's profiles: named sets of parameters for its generation model, and the one
// function that turns SimOptions (profile + overriding flags + time scale) into a model.
// docs/simulator.md gives each profile's numbers and where they come from.
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bench/sim/generation_model.hpp"
#include "bench/sim/prefix_cache.hpp"
#include "bench/sim/sim_options.hpp"

namespace bench::sim {

enum class ProfileKind {
  fixed,     // FixedLatencyModel: every request on its own clock
  batching,  // BatchingModel: one continuous-batching engine shared by every request
};

struct Profile {
  std::string_view name;
  ProfileKind kind;
  std::string_view summary;  // one line for --help
  double ttft_ms = 0;        // fixed profiles
  double tpot_ms = 0;
  EngineParams engine;        // batching profiles
  bool prefix_cache = false;  // the prefix cache is on unless --prefix-cache off
};

/// Every profile, in the order --help lists them.
std::span<const Profile> profiles();

/// The profile called `name`, or nullptr.
const Profile* find_profile(std::string_view name);

/// "fixed, firehose, tiny, ..." for messages and --help.
std::string profile_names();

/// The engine parameters of a batching profile with the flags' overrides applied.
EngineParams resolve_engine(const Profile& profile, const EngineOverrides& overrides);

/// The model `options` ask for. Throws std::invalid_argument naming the profile or flag when
/// the options do not make a model (unknown profile, time scale <= 0).
std::unique_ptr<GenerationModel> make_generation_model(const SimOptions& options);

/// The prefix cache `options` ask for (the profile's default or --prefix-cache), sized to the
/// engine's KV budget, or nullptr when it is off. Call after make_generation_model.
std::unique_ptr<PrefixCache> make_prefix_cache(const SimOptions& options);

}  // namespace bench::sim
