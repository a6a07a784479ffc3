#pragma once
// Helpers the compare tests share: a comparison that must succeed, a refusal that must happen,
// and one metric's row.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include "bench/compare/compare.hpp"

namespace bench::testing {

inline compare::Comparison compared(const nlohmann::json& base, const nlohmann::json& next,
                                    std::optional<double> threshold = {}) {
  compare::CompareOptions options;
  options.threshold = threshold;
  auto result = compare::compare(base, next, options);
  if (const auto* error = std::get_if<compare::CompareError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<compare::Comparison>(result);
}

inline std::string refusal(const nlohmann::json& base, const nlohmann::json& next) {
  auto result = compare::compare(base, next, {"base.json", "new.json", std::nullopt, {}});
  if (std::holds_alternative<compare::Comparison>(result)) {
    ADD_FAILURE() << "compared";
    return "";
  }
  return std::get<compare::CompareError>(result).message;
}

inline const compare::Row& row(const compare::Comparison& comparison, const std::string& metric) {
  for (const compare::Row& candidate : comparison.points.at(0).rows) {
    if (candidate.metric == metric) return candidate;
  }
  throw std::runtime_error("no row " + metric);
}

}  // namespace bench::testing
