#include "bench/gate/metric_names.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include <fmt/format.h>

#include "bench/results/compat.hpp"

namespace bench::gate {
namespace {

// Optimal string alignment distance: Levenshtein plus adjacent transpositions, the two slips
// a hand typing a key makes ("p99_ttfft_ms", "ouptut_throughput").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The known name a user most likely meant, or "" when none is close: at most 2 edits, or a
// fifth of the name's length for long names, so an unrelated word gets no suggestion.
std::string nearest(std::string_view metric, const std::vector<std::string>& known) {
  // A missing unit suffix ("p99_ttft" for p99_ttft_ms) is three edits, too many for the rule
  // below, yet the likeliest slip of all.
  const std::string with_unit = fmt::format("{}_ms", metric);
  if (std::find(known.begin(), known.end(), with_unit) != known.end()) return with_unit;
  const std::size_t allowed = std::max<std::size_t>(2, metric.size() / 5);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(metric, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
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
