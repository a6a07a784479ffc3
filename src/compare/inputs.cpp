// What `bench compare` reads besides the two results files (results::read_results_file): the
// --fail-on-regression thresholds.
#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "bench/compare/compare.hpp"
#include "bench/results/compat.hpp"
#include "bench/util/text.hpp"

namespace bench::compare {
std::variant<double, CompareError> parse_threshold(std::string_view flag, std::string_view text) {
  const std::string_view trimmed = util::trim(text);
  const bool percent = trimmed.ends_with('%');
  const std::string_view digits =
      percent ? util::trim(trimmed.substr(0, trimmed.size() - 1)) : trimmed;
  const std::optional<double> number = util::parse_finite_double(digits);
  if (!number || *number < 0) {
    return CompareError{fmt::format(
        "{}: '{}' is not a threshold (5% or 0.05 allow a 5% change for the worse)", flag, text)};
  }
  if (!percent && *number > 1) {
    return CompareError{fmt::format(
        "{}: '{}' would be a fraction ({}%); write {}% for {} percent, or a fraction up to 1", flag,
        text, *number * 100, trimmed, trimmed)};
  }
  return percent ? *number / 100 : *number;
}

namespace {

// "output_throughput, input_throughput, ...": the names a per-figure threshold may use.
std::string metric_list() {
  std::string out;
  for (const std::string& key : compared_metrics()) out += (out.empty() ? "" : ", ") + key;
  return out;
}

// One entry of --fail-on-regression's `text` into `out`: "5%" (every figure) or "METRIC=5%".
std::optional<CompareError> add_threshold(Thresholds& out, std::string_view flag,
                                          std::string_view text, std::string_view entry) {
  const std::size_t equals = entry.find('=');
  const std::string_view value =
      equals == std::string_view::npos ? entry : entry.substr(equals + 1);
  auto threshold = parse_threshold(flag, value);
  if (const auto* error = std::get_if<CompareError>(&threshold)) return *error;
  if (equals == std::string_view::npos) {
    if (out.all) {
      return CompareError{
          fmt::format("{}: '{}' gives the threshold for every figure twice", flag, text)};
    }
    out.all = std::get<double>(threshold);
    return std::nullopt;
  }
  const std::string_view metric = util::trim(entry.substr(0, equals));
  // A peer's name for the figure (vLLM's total_token_throughput) is bench's figure.
  const std::string key = results::aliased_key(metric).value_or(std::string(metric));
  const std::vector<std::string>& known = compared_metrics();
  if (std::find(known.begin(), known.end(), key) == known.end()) {
    return CompareError{fmt::format("{}: '{}' is not a figure bench compare judges ({})", flag,
                                    metric, metric_list())};
  }
  if (!out.by_metric.emplace(key, std::get<double>(threshold)).second) {
    return CompareError{fmt::format("{}: '{}' is given twice", flag, key)};
  }
  return std::nullopt;
}

}  // namespace

std::variant<Thresholds, CompareError> parse_thresholds(std::string_view flag,
                                                        std::string_view text) {
  Thresholds out;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    if (auto error = add_threshold(out, flag, text, rest.substr(0, comma))) return *error;
    if (comma == std::string_view::npos) return out;
    rest.remove_prefix(comma + 1);
  }
}

}  // namespace bench::compare
