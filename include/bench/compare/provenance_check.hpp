#pragma once
// Whether two results were made alike (results/provenance.hpp): one warning line for each item
// they differ in (bench version and commit, build type, libcurl, CPU model, CPUs online), since
// a figure may differ for that reason alone. Warnings, never a failure. When only one file
// records it, one line says the other's is unknown; when neither does, nothing.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::compare {

std::vector<std::string> provenance_warnings(const nlohmann::json& base,
                                             const std::string& base_name,
                                             const nlohmann::json& next,
                                             const std::string& new_name);

}  // namespace bench::compare
