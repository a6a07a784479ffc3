#include "bench/gate/metric_names.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include <fmt/format.h>

#include "bench/results/compat.hpp"
#include "bench/util/nearest_name.hpp"

namespace bench::gate {
namespace {

// The known name a user most likely meant, or "" when none is close: at most 2 edits, or a
// fifth of the name's length for long names, so an unrelated word gets no suggestion.
std::string nearest(std::string_view metric, const std::vector<std::string>& known) {
  // A missing unit suffix ("p99_ttft" for p99_ttft_ms) is three edits, too many for the rule
  // below, yet the likeliest slip of all.
  const std::string with_unit = fmt::format("{}_ms", metric);
  if (std::find(known.begin(), known.end(), with_unit) != known.end()) return with_unit;
  return util::nearest_name(metric, known);
}

}  // namespace

std::string metric_key(std::string_view metric) {
  return results::aliased_key(metric).value_or(std::string(metric));
}

std::optional<std::string> check_metric(std::string_view flag, std::string_view metric,
                                        const std::vector<std::string>& known) {
  const std::string key = metric_key(metric);
  if (std::find(known.begin(), known.end(), key) != known.end()) return std::nullopt;
  const std::string suggestion = nearest(metric, known);
  if (!suggestion.empty()) {
    return fmt::format("{}: '{}' is not a metric of bench's results (did you mean {}?)", flag,
                       metric, suggestion);
  }
  return fmt::format(
      "{}: '{}' is not a metric of bench's results (numeric keys such as output_throughput, "
      "p99_ttft_ms; docs/results-format.md, \"JSON results\", lists them)",
      flag, metric);
}

std::optional<std::string> check_produced(std::string_view flag, std::string_view metric,
                                          const metrics::FigureSet& produced,
                                          std::string_view endpoint) {
  const std::optional<metrics::Figure> figure = results::figure_of_key(metric_key(metric));
  if (!figure || produced.has(*figure)) return std::nullopt;
  return fmt::format("{}: '{}' is a figure of {}, which --endpoint {} does not produce", flag,
                     metric, metrics::figure_name(*figure), endpoint);
}

}  // namespace bench::gate
