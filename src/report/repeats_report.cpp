// The text report of a point measured several times (--repeat N): each key figure as
// "mean ± half-width" with the interval's kind said once, then each repeat's value, and the
// failed requests of all repeats. Rendered from the point's `repeats` summary.
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "bench/report/report.hpp"
#include "bench/results/format.hpp"
#include "bench/results/repeats.hpp"

namespace bench::report {

namespace {

using nlohmann::json;

using Row = results::RepeatedFigure;

constexpr int kLabelWidth = 25;

// Whether some repeat measured the figure: an efficiency figure unknown in every repeat (no
// --gpus, no price, no energy counter) is left out rather than shown as unknown.
bool measured_in_some_repeat(const json& point, std::string_view key) {
  for (const json& run : point.value(results::key::repeat_runs, json::array())) {
    const auto found = run.is_object() ? run.find(key) : run.end();
    if (found != run.end() && found->is_number()) return true;
  }
  return false;
}

std::string row(const json& figure, const Row& shown) {
  if (!figure.is_object())
    return fmt::format("  {:<{}} n/a (unknown in some repeat)\n", shown.label, kLabelWidth);
  const double mean = figure.value("mean", 0.0);
  const json& half_width = figure["half_width"];
  const std::string interval = half_width.is_number()
                                   ? fmt::format("{:.{}f} ± {:.{}f}", mean, shown.decimals,
                                                 half_width.get<double>(), shown.decimals)
                                   : fmt::format("{:.{}f} ± n/a", mean, shown.decimals);
  std::string each;
  for (const json& value : figure.value("values", json::array())) {
    fmt::format_to(std::back_inserter(each), " {:.{}f}", value.get<double>(), shown.decimals);
  }
  const double relative = mean != 0 && half_width.is_number()
                              ? 100.0 * half_width.get<double>() / std::fabs(mean)
                              : NAN;
  return fmt::format("  {:<{}} {:>22} {:>8}  |{}\n", shown.label, kLabelWidth, interval,
                     std::isfinite(relative) ? fmt::format("±{:.1f}%", relative) : "", each);
}

}  // namespace

std::string render_repeats(const json& point, std::string_view title) {
  const json& repeats = point.value(results::key::repeats, json::object());
  const auto count = repeats.value("count", std::int64_t{0});
  const double confidence = repeats.value("confidence", results::kRepeatConfidence);
  std::string out = fmt::format(
      "{}{}{} repeats, each with fresh prompts: mean ± half-width ({:g}% CI, Student's t, {} "
      "repeats) | each repeat\n",
      title, title.empty() ? "" : ": ", count, confidence * 100, count);
  const json& figures = repeats.value("figures", json::object());
  for (const Row& shown : results::repeated_figures()) {
    if (!shown.shown_when_unknown && !measured_in_some_repeat(point, shown.key)) continue;
    const auto found = figures.find(shown.key);
    out += row(found != figures.end() ? *found : json(), shown);
  }
  std::int64_t failed = 0, sent = 0;
  for (const json& run : point.value(results::key::repeat_runs, json::array())) {
    failed += run.value("failed", std::int64_t{0});
    sent += run.value("sent", std::int64_t{0});
  }
  fmt::format_to(std::back_inserter(out), "  failed requests: {} of {} sent over all repeats\n",
                 failed, sent);
  return out;
}

}  // namespace bench::report
