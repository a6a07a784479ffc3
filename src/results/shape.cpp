// Telling a run from a sweep, and refusing what is not a results object, in one place.
#include "bench/results/shape.hpp"

#include <fmt/format.h>

namespace bench::results {
namespace {

using nlohmann::json;

bool has_points_array(const json& results) {
  const auto points = results.find(key::points);
  return points != results.end() && points->is_array();
}

std::optional<FormatError> check_version(const json& results, std::string_view name) {
  const auto version = results.find(key::schema_version);
  if (version != results.end() && version->is_number() && version->get<double>() > kSchemaVersion) {
    return FormatError{fmt::format("{}: schema_version {} is newer than this bench reads ({})",
                                   name, version->dump(), kSchemaVersion)};
  }
  return std::nullopt;
}

// The kind a file states, or nullopt when it states none; an error for a kind bench cannot read.
std::variant<std::optional<Kind>, FormatError> stated_kind(const json& results,
                                                           std::string_view name) {
  const auto found = results.find(key::kind);
  if (found == results.end()) return std::optional<Kind>();
  const std::optional<Kind> kind =
      found->is_string() ? parse_kind(found->get<std::string>()) : std::nullopt;
  if (kind != Kind::run && kind != Kind::sweep && kind != Kind::search) {
    return FormatError{fmt::format("{}: \"kind\": {} is neither a run, a sweep nor a search", name,
                                   found->dump())};
  }
  return kind;
}

}  // namespace

bool is_sweep(const json& results) {
  if (!results.is_object()) return false;
  const auto kind = results.find(key::kind);
  if (kind != results.end() && kind->is_string() && !kind->get<std::string>().empty()) {
    return *kind == kind_name(Kind::sweep);
  }
  return has_points_array(results);
}

std::variant<Kind, FormatError> classify(const json& results, std::string_view name) {
  if (!results.is_object()) {
    return FormatError{fmt::format("{}: not a bench results object (a JSON object)", name)};
  }
  if (auto error = check_version(results, name)) return *error;
  auto stated = stated_kind(results, name);
  if (auto* error = std::get_if<FormatError>(&stated)) return *error;
  const std::optional<Kind> kind = std::get<std::optional<Kind>>(stated);
  const bool has_points = has_points_array(results);
  if (kind == Kind::sweep || kind == Kind::search || (!kind && has_points)) {
    const Kind found = kind.value_or(Kind::sweep);
    if (!has_points || results[key::points].empty()) {
      return FormatError{fmt::format("{}: a {} without points", name, kind_name(found))};
    }
    return found;  // a search's probes are the points of a sweep in load order
  }
  if (!kind && !results.contains(key::output_throughput)) {
    return FormatError{
        fmt::format("{}: not a bench results object (neither output_throughput nor points)", name)};
  }
  return Kind::run;
}

}  // namespace bench::results
