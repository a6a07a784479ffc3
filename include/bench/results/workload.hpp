#pragma once
// What a result says of its workload and of the server's prefix cache, written by the run and
// read by compare:
//   "workload": {"fingerprint": "<16 hex digits>", "generator_version": 2, "seed": 42}
//   "prefix_cache_flush": "flush_cache" | "reset_prefix_cache" | "cache_prompt_false" |
//                         "unavailable" | null (--flush-cache not given)
// The fingerprint hashes the workload's definition, not its seed: another seed draws the same
// workload, so the seed is recorded beside it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::results {

namespace key {
inline constexpr std::string_view workload = "workload";
inline constexpr std::string_view fingerprint = "fingerprint";
inline constexpr std::string_view generator_version = "generator_version";
inline constexpr std::string_view seed = "seed";
inline constexpr std::string_view prefix_cache_flush = "prefix_cache_flush";
}  // namespace key

struct WorkloadStamp {
  std::string fingerprint;
  int generator_version = 0;
  std::uint64_t seed = 0;
};

/// {"fingerprint", "generator_version", "seed"}.
nlohmann::json workload_to_json(const WorkloadStamp& stamp);

/// The fingerprint a results object (a run, or a sweep point) records; nullopt when it has
/// none (written by a bench older than the fingerprint).
std::optional<std::string> workload_fingerprint(const nlohmann::json& results);

}  // namespace bench::results
