#pragma once
// What made a results file: the bench build (version, commit, build type, libcurl) and the host
// it ran on (CPU model, CPUs online). Two results that differ in any of these may differ for
// that reason alone, so `compare` names each difference. Written as the run object's
// "provenance"; files from before it have none, and every item then reads as unknown.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::results {

namespace key {
inline constexpr std::string_view provenance = "provenance";
// Merged shards whose blocks differ: the items that do (their values are arrays then).
inline constexpr std::string_view shards_differ = "shards_differ";
}  // namespace key

struct Provenance {
  std::string bench_version;
  std::string commit;      // `git describe --always --dirty` at configure time, or "unknown"
  std::string build_type;  // CMAKE_BUILD_TYPE ("RelWithDebInfo", ...), or "unknown"
  std::string libcurl;     // the libcurl bench ran with (curl_version_info), not built against
  std::string cpu_model;   // /proc/cpuinfo "model name", or "unknown"
  std::optional<std::int64_t> cpus_online;  // sysconf(_SC_NPROCESSORS_ONLN)
};

nlohmann::json provenance_to_json(const Provenance& provenance);

/// One item of a provenance block, as compare names it.
struct ProvenanceItem {
  std::string_view key;    // "libcurl"
  std::string_view label;  // "libcurl version"
};

/// The items, in the order they are written and compared.
const std::vector<ProvenanceItem>& provenance_items();

/// The shards' blocks made one: an item all shards agree on keeps its value; one they differ in
/// becomes the array of their distinct values and is listed in "shards_differ" (shards may run
/// on different hosts or builds). Null when no shard has a block.
nlohmann::json merge_provenance(const std::vector<const nlohmann::json*>& runs);

}  // namespace bench::results
