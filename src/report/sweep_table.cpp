// The text report of a sweep: one row per point, output tok/s before input and total, latency
// percentiles, errors. Rendered from the points' JSON objects. A prefix-share sweep shows the
// cached share the server reported right beside the share asked for.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/report/report.hpp"
#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {

namespace {

using nlohmann::json;

double number(const json& run, std::string_view key) {
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return 0;
  const double value = found->get<double>();
  return std::isfinite(value) ? value : 0;
}

// A figure to `decimals` places; "n/a" when unknown (missing, null, or lacking input counts).
std::string cell(const json& run, std::string_view key, int decimals) {
  const std::optional<double> value = results::known_metric(run, key);
  if (!value || !std::isfinite(*value)) return "n/a";
  return fmt::format("{:.{}f}", *value, decimals);
}

// The sweep's points; none when "points" is missing or not an array.
const json& points_of(const json& sweep) {
  static const json kNone = json::array();
  const json* points = view::array_at(sweep, "points");
  return points != nullptr ? *points : kNone;
}

// A point's value in the first column: its own setting for a load (a whole count as the
// integer, the rate as written, "inf"), the sweep's value when the points are no load (a
// share; "n/a" when unknown).
std::string point_label(const json& sweep, const json& run, std::size_t index,
                        const view::SweepAxis& axis) {
  if (!axis.is_load) {
    const std::optional<double> value = view::sweep_value(sweep, run, index);
    return value ? axis.label(value) : std::string("n/a");
  }
  if (axis.whole_count) {
    return fmt::format("{}", static_cast<std::int64_t>(number(run, axis.point_key)));
  }
  const auto written = run.find(axis.point_key);
  if (written != run.end() && written->is_string()) return written->get<std::string>();
  return fmt::format("{:g}", number(run, axis.point_key));
}

// The cached share in percent, one decimal; "n/a" when not disclosed (null or missing), so a
// share bench did not measure is never shown as one.
std::string cached_percent(const json& run) {
  const std::optional<double> share = results::known_metric(run, results::key::cached_input_share);
  return share ? fmt::format("{:.1f}", *share * 100) : std::string("n/a");
}

// "WARNING (concurrency 4): ..." for each warning a point's results carry.
std::string point_warnings(const json& sweep, const view::SweepAxis& axis) {
  std::string out;
  const json& points = points_of(sweep);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& run = points[i];
    const auto warnings = run.find(results::key::warnings);
    if (warnings == run.end() || !warnings->is_array()) continue;
    for (const json& warning : *warnings) {
      if (!warning.is_string()) continue;
      out += fmt::format("WARNING ({} {}): {}\n", axis.noun, point_label(sweep, run, i, axis),
                         warning.get<std::string>());
    }
  }
  return out;
}

constexpr int kCachedColumn = 4;  // "cached", after output and input tok/s
// After the first cell of a point a stop signal cut short, explained below the table.
constexpr const char* kPartialMark = "*";

// Right-aligned cells, one space apart. An axis read by what the server's cache served (a
// prefix share) has the cached share moved beside the value asked for, so the two are read
// together.
std::string row_line(std::vector<std::string> cells, const view::SweepAxis& axis) {
  std::vector<int> widths = {
      std::max(11, static_cast<int>(axis.column.size())), 8, 11, 11, 7, 11, 9, 9, 8, 8, 8, 7};
  if (axis.cached_beside) {
    std::rotate(cells.begin() + 1, cells.begin() + kCachedColumn,
                cells.begin() + kCachedColumn + 1);
    std::rotate(widths.begin() + 1, widths.begin() + kCachedColumn,
                widths.begin() + kCachedColumn + 1);
  }
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    line += fmt::format("{}{:>{}}", i > 0 ? " " : "", cells[i], widths[i]);
  }
  return line + "\n";
}

std::string errors_cell(const json& run) {
  const auto failed = static_cast<std::int64_t>(number(run, "failed"));
  const auto sent = static_cast<std::int64_t>(number(run, "sent"));
  return failed == 0
             ? "0"
             : fmt::format("{} ({:.0f}%)", failed, sent > 0 ? 100.0 * failed / sent : 100.0);
}

}  // namespace

std::string render_sweep_table(const json& sweep) {
  const view::SweepAxis axis = view::sweep_axis(sweep);
  std::string out =
      row_line({std::string(axis.column), "req/s", "output", "input", "cached", "total", "TTFT p50",
                "TTFT p99", "ITL p50", "ITL p99", "TPOT p50", "errors"},
               axis);
  out += row_line({std::string(axis.column_under), "", "tok/s", "tok/s", "%", "tok/s", "ms", "ms",
                   "ms", "ms", "ms", ""},
                  axis);
  const json& points = points_of(sweep);
  bool any_partial = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& run = points[i];
    // A point a stop signal cut short: its figures are of part of its requests.
    const bool partial = view::flag(run, "interrupted");
    any_partial = any_partial || partial;
    out += row_line(
        {point_label(sweep, run, i, axis) + (partial ? kPartialMark : ""),
         cell(run, "request_throughput", 2), cell(run, "output_throughput", 1),
         cell(run, "input_throughput", 1), cached_percent(run), cell(run, "total_throughput", 1),
         cell(run, "median_ttft_ms", 2), cell(run, "p99_ttft_ms", 2), cell(run, "median_itl_ms", 2),
         cell(run, "p99_itl_ms", 2), cell(run, "median_tpot_ms", 2), errors_cell(run)},
        axis);
  }
  if (any_partial) {
    out += fmt::format(
        "{} partial: a stop signal cut this point short; its figures cover the "
        "requests sent before the stop.\n",
        kPartialMark);
  }
  out += "output / input / total: token throughput of each kind (output = generated tokens).\n";
  out += axis.text_table_note;
  out +=
      "cached: % of input tokens served from the server's prefix cache; n/a when the server\n"
      "did not disclose it (vLLM needs --enable-prompt-tokens-details).\n";
  out += point_warnings(sweep, axis);
  return out;
}

}  // namespace bench::report
