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

struct Row {
  std::string_view key;    // a figure of results::repeated_figures()
  std::string_view label;  // as the report names it, with its unit
  int decimals;
  bool shown_when_unknown = true;  // false: left out when no repeat measured it
};

constexpr Row kRows[] = {
    {"output_throughput", "output tok/s", 1},
    {"input_throughput", "input tok/s", 1},
    {"total_throughput", "total tok/s", 1},
    {"request_throughput", "requests/s", 2},
    {"median_ttft_ms", "TTFT p50 (ms)", 2},
    {"p99_ttft_ms", "TTFT p99 (ms)", 2},
    {"median_tpot_ms", "TPOT p50 (ms)", 2},
    {"p99_tpot_ms", "TPOT p99 (ms)", 2},
    {"median_itl_ms", "ITL p50 (ms)", 2},
    {"p99_itl_ms", "ITL p99 (ms)", 2},
    {"median_e2e_latency_ms", "E2E p50 (ms)", 2},
    {"p99_e2e_latency_ms", "E2E p99 (ms)", 2},
    {results::key::output_throughput_per_gpu, "output tok/s per GPU", 1, false},
    {results::key::input_throughput_per_gpu, "input tok/s per GPU", 1, false},
    {results::key::total_throughput_per_gpu, "total tok/s per GPU", 1, false},
    {results::key::median_output_throughput_per_user, "output tok/s per user p50", 1},
    {results::key::p10_output_throughput_per_user, "output tok/s per user p10", 1},
    {results::key::usd_per_million_output_tokens, "USD per M output tokens", 3, false},
    {results::key::joules_per_output_token, "J per output token", 3, false},
};
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
  for (const Row& shown : kRows) {
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
