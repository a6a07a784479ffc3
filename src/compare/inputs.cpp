// What `bench compare` reads: the two results files and the --fail-on-regression threshold.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "bench/compare/compare.hpp"
#include "bench/util/text.hpp"

namespace bench::compare {
std::variant<nlohmann::json, CompareError> load_results(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return CompareError{fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return CompareError{fmt::format("{}: cannot read: {}", path, std::strerror(errno))};
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    // nlohmann's message leads with "[json.exception.parse_error.101] parse error at line L,
    // column C: ..."; the part after the bracket is the useful one.
    std::string_view what = error.what();
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
    return CompareError{fmt::format("{}: not JSON: {}", path, what)};
  }
}

std::variant<double, CompareError> parse_threshold(std::string_view flag, std::string_view text) {
  const std::string_view trimmed = util::trim_spaces(text);
  const bool percent = trimmed.ends_with('%');
  const std::string_view digits =
      percent ? util::trim_spaces(trimmed.substr(0, trimmed.size() - 1)) : trimmed;
  const std::optional<double> number = util::parse_finite_double(digits);
  if (!number || *number < 0) {
    return CompareError{fmt::format(
        "{}: '{}' is not a threshold (5% or 0.05 allow a 5% change for the worse)", flag, text)};
  }
  if (!percent && *number > 1) {
    return CompareError{fmt::format(
        "{}: '{}' would be a fraction ({}%); write {}% for {} percent, or a fraction up to 1",
        flag, text, *number * 100, trimmed, trimmed)};
  }
  return percent ? *number / 100 : *number;
}

}  // namespace bench::compare
