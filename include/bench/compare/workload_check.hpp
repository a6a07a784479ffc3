#pragma once
// Whether two results measured the same workload, by the fingerprint each records
// (results/workload.hpp): the warning to give when they did not or cannot be checked, or
// nothing. Two results that both predate the fingerprint are left to the settings checks.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace bench::compare {

std::optional<std::string> workload_warning(const nlohmann::json& base,
                                            const std::string& base_name,
                                            const nlohmann::json& next,
                                            const std::string& new_name);

}  // namespace bench::compare
