#include "bench/compare/workload_check.hpp"

#include <fmt/format.h>

#include "bench/results/workload.hpp"

namespace bench::compare {

std::optional<std::string> workload_warning(const nlohmann::json& base,
                                            const std::string& base_name,
                                            const nlohmann::json& next,
                                            const std::string& new_name) {
  const std::optional<std::string> before = results::workload_fingerprint(base);
  const std::optional<std::string> after = results::workload_fingerprint(next);
  if (!before && !after) return std::nullopt;
  if (!before || !after) {
    return fmt::format(
        "{} was made by an older bench: its workload cannot be checked against "
        "{}'s",
        before ? new_name : base_name, before ? base_name : new_name);
  }
  if (*before == *after) return std::nullopt;
  return fmt::format(
      "{} and {} measured different workloads (fingerprint {} vs {}): the "
      "comparison may be meaningless",
      base_name, new_name, *before, *after);
}

}  // namespace bench::compare
