// The results format's spellings: kinds, the unlimited rate, unknown figures, numbers.
#include "bench/results/format.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace bench::results {

using nlohmann::json;

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::run: return "run";
    case Kind::sweep: return "sweep";
    case Kind::search: return "search";
    case Kind::merged: return "merged";
  }
  return "run";
}

std::optional<Kind> parse_kind(std::string_view name) {
  for (Kind kind : {Kind::run, Kind::sweep, Kind::search, Kind::merged}) {
    if (kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

json rate_to_json(double rate_per_s) {
  return std::isfinite(rate_per_s) ? json(rate_per_s) : json(kUnlimited);
}

std::optional<double> number_from_json(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text == kUnlimited || text == "Infinity" || text == "infinity") {
      return std::numeric_limits<double>::infinity();
    }
  }
  return std::nullopt;
}

std::optional<double> number_at(const json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  return found == object.end() ? std::nullopt : number_from_json(*found);
}

json known_or_null(std::optional<double> value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

double finite_or_zero(double value) { return std::isfinite(value) ? value : 0.0; }

std::string value_label(double value) {
  if (std::isinf(value)) return std::string(kUnlimited);
  if (std::isnan(value)) return "-";
  if (value == std::floor(value) && std::abs(value) < 1e15) return fmt::format("{:.0f}", value);
  return fmt::format("{:g}", value);
}

std::string format_number(double value) {
  if (value == std::trunc(value) && std::abs(value) < 1e15) return fmt::format("{:.0f}", value);
  if (std::abs(value) < 1) return fmt::format("{:.3g}", value);
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace bench::results
