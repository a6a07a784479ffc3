#include "bench/compare/provenance_check.hpp"

#include <fmt/format.h>

#include "bench/results/provenance.hpp"

namespace bench::compare {

namespace {

using nlohmann::json;

const json* block_of(const json& run) {
  const auto found = run.find(results::key::provenance);
  return found != run.end() && found->is_object() ? &*found : nullptr;
}

std::string shown(const json& value) {
  if (value.is_null()) return "unknown";
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

std::vector<std::string> provenance_warnings(const json& base, const std::string& base_name,
                                             const json& next, const std::string& new_name) {
  const json* before = block_of(base);
  const json* after = block_of(next);
  if (before == nullptr && after == nullptr) return {};
  if (before == nullptr || after == nullptr) {
    return {
        fmt::format("{} does not record what made it (an older bench): its build and host "
                    "are unknown against {}'s",
                    before ? new_name : base_name, before ? base_name : new_name)};
  }
  std::vector<std::string> warnings;
  for (const results::ProvenanceItem& item : results::provenance_items()) {
    const std::string key(item.key);
    const json a = before->value(key, json());
    const json b = after->value(key, json());
    if (a == b) continue;
    warnings.push_back(
        fmt::format("{} and {} were made with a different {} ({} vs {}): figures "
                    "may differ for that reason alone",
                    base_name, new_name, item.label, shown(a), shown(b)));
  }
  return warnings;
}

}  // namespace bench::compare
