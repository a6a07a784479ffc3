#pragma once
// Which kind of results object a JSON value is: the one decision report, gate and compare
// share. Files without "kind" (written before it existed) are a sweep when they hold a
// "points" array and a run otherwise.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/format.hpp"

namespace bench::results {

/// Why a JSON value is not a results object this bench reads: one line naming the file.
struct FormatError {
  std::string message;
};

/// True for {"kind": "sweep"}, or, without a string "kind", a "points" array. Tolerant: for
/// renderers and gates that have already been told (or do not care) whether it is valid.
bool is_sweep(const nlohmann::json& results);

/// The kind of a results file named `name` (for messages), checked: an object, a
/// schema_version this bench reads, a kind it knows, a sweep with points, a run with
/// output_throughput or a "kind". A search is a sweep of its probes (with points, like a
/// sweep). The reserved kind merged is refused until bench reads it.
std::variant<Kind, FormatError> classify(const nlohmann::json& results, std::string_view name);

}  // namespace bench::results
