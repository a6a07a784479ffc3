// A Comparison for people (an aligned table per point) and for scripts (JSON).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "bench/compare/compare.hpp"

namespace bench::compare {
namespace {

using nlohmann::json;

// metric, unit, base, new, change, detectable, p, verdict; detectable and p only when some
// point has repeats on both sides.
constexpr std::size_t kColumns = 8;
using Cells = std::array<std::string, kColumns>;

std::string value_cell(const std::optional<double>& value) {
  return value ? fmt::format("{:.2f}", *value) : "-";
}

std::string change_cell(const Row& row) {
  if (row.verdict == Verdict::not_comparable) return "";
  if (!row.change_pct) return "n/a (base 0)";
  // Below what two decimals show (the judge calls it the same): no sign, never "-0.00%".
  if (std::abs(*row.change_pct) < kNegligibleChangePct) return "0.00%";
  return fmt::format("{:+.2f}%", *row.change_pct);
}

std::string verdict_cell(const Row& row) {
  switch (row.verdict) {
    case Verdict::same: return "";
    case Verdict::better: return "better";
    case Verdict::worse: return "worse";
    case Verdict::regression: return "REGRESSION";
    case Verdict::not_comparable:
      if (!row.base_value && !row.new_value) return "missing in both";
      return row.base_value ? "missing in new" : "missing in base";
    case Verdict::below_detectable: return "below detectable change";
  }
  return "";
}

std::string detectable_cell(const Row& row) {
  return row.detectable_pct ? fmt::format("±{:.2f}%", *row.detectable_pct) : "n/a";
}

std::string p_cell(const Row& row) {
  if (!row.p_value) return "n/a";
  return *row.p_value < 0.001 ? "<0.001" : fmt::format("{:.3f}", *row.p_value);
}

Cells cells_of(const Row& row, bool noise_columns) {
  return {row.label,
          row.unit,
          value_cell(row.base_value),
          value_cell(row.new_value),
          change_cell(row),
          noise_columns ? detectable_cell(row) : "",
          noise_columns ? p_cell(row) : "",
          verdict_cell(row)};
}

// What the point's verdicts rest on, in one line: Welch's t-test on the repeats, or size alone.
std::string noise_line(const PointComparison& point) {
  if (point.noise_aware()) {
    return fmt::format(
        "noise: {} repeats in base, {} in new; a change counts only when Welch's t-test says "
        "it is real (two-sided p < {:g}); detectable = the smallest change it could call real\n",
        point.base_repeats, point.new_repeats, kSignificance);
  }
  const std::string sides =
      point.base_repeats < 2 && point.new_repeats < 2
          ? "single runs"
          : fmt::format("{} single run", point.base_repeats < 2 ? "base is a" : "new is a");
  return fmt::format(
      "noise: no estimate ({}), so changes are judged by size alone and the detectable change "
      "is unknown; measure both sides with --repeat N (N >= 2) for a noise-aware comparison\n",
      sides);
}

// "5%" for a threshold of 0.05 ("{:g}" so 0.05 x 100 does not print as 5.000000000000001).
std::string percent_text(double fraction) { return fmt::format("{:g}%", fraction * 100); }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

// The thresholds as the last line names them: "5%", "p99_ttft_ms 10%, output_throughput 2%",
// or "5% (p99_itl_ms 20%)" when there are both.
std::string thresholds_text(const Comparison& comparison) {
  std::vector<std::string> own;
  for (const auto& [metric, fraction] : comparison.metric_thresholds) {
    own.push_back(fmt::format("{} {}", metric, percent_text(fraction)));
  }
  if (!comparison.threshold) return join(own);
  const std::string all = percent_text(*comparison.threshold);
  return own.empty() ? all : fmt::format("{} ({})", all, join(own));
}

using Widths = std::array<std::size_t, kColumns>;

// Each column as wide as its widest cell over every point's table.
Widths column_widths(const Comparison& comparison, const Cells& header, bool noise_columns) {
  Widths widths{};
  auto widen = [&widths](const Cells& cells) {
    for (std::size_t i = 0; i < kColumns; ++i) widths[i] = std::max(widths[i], cells[i].size());
  };
  widen(header);
  for (const PointComparison& point : comparison.points) {
    for (const Row& row : point.rows) widen(cells_of(row, noise_columns));
  }
  return widths;
}

// Names and units read left to right; figures right-aligned so their decimals line up.
std::string table_line(const Cells& cells, const Widths& widths) {
  std::string text =
      fmt::format("{:<{}}  {:<{}}  {:>{}}  {:>{}}  {:>{}}", cells[0], widths[0], cells[1],
                  widths[1], cells[2], widths[2], cells[3], widths[3], cells[4], widths[4]);
  for (std::size_t i = 5; i < 7; ++i) {
    if (widths[i] > 0) text += fmt::format("  {:>{}}", cells[i], widths[i]);
  }
  if (!cells[7].empty()) text += "  " + cells[7];
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text + "\n";
}

// Each point's table, its columns aligned across the points, and its noise line.
std::string tables_text(const Comparison& comparison) {
  const bool noise_columns = std::any_of(comparison.points.begin(), comparison.points.end(),
                                         [](const PointComparison& p) { return p.noise_aware(); });
  const Cells header = {"metric",
                        "unit",
                        "base",
                        "new",
                        "change",
                        noise_columns ? "detectable" : "",
                        noise_columns ? "p" : "",
                        ""};
  const Widths widths = column_widths(comparison, header, noise_columns);
  std::string out;
  for (const PointComparison& point : comparison.points) {
    out += "\n";
    if (!point.label.empty()) out += point.label + "\n";
    out += table_line(header, widths);
    for (const Row& row : point.rows) out += table_line(cells_of(row, noise_columns), widths);
    out += noise_line(point);
  }
  return out;
}

// The last line with --fail-on-regression: the regressions beyond the thresholds. Two runs:
// which metrics regressed. A sweep: how many at each point (the tables say which), so the line
// stays readable over many points.
std::string regressions_text(const Comparison& comparison) {
  const std::string threshold = thresholds_text(comparison);
  std::vector<std::string> regressed;
  for (const PointComparison& point : comparison.points) {
    std::size_t at_point = 0;
    for (const Row& row : point.rows) {
      if (row.verdict != Verdict::regression) continue;
      ++at_point;
      if (point.label.empty()) regressed.push_back(row.label);
    }
    if (!point.label.empty() && at_point > 0) {
      regressed.push_back(fmt::format("{} at {}", at_point, point.label));
    }
  }
  const std::size_t count = comparison.regressions();
  if (count == 0) {
    return fmt::format("\nNo regression beyond {} (--fail-on-regression).\n", threshold);
  }
  return fmt::format("\n{} regression{} beyond {} (--fail-on-regression): {}\n", count,
                     count == 1 ? "" : "s", threshold, join(regressed));
}

std::string setup_value(const json& value) {
  if (value.is_null()) return "unknown";
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// What made each side, before the figures: each item that changed as "base -> new", then the
// ones that did not, in one line. Nothing for files that record none.
std::string setup_text(const Comparison& comparison) {
  if (comparison.setup.empty()) return "";
  std::string out = "\nsetup (what made each side):\n";
  std::vector<std::string> same;
  for (const SetupItem& item : comparison.setup) {
    if (item.changed()) {
      out += fmt::format("  {:<22} {} -> {}\n", item.label, setup_value(item.base),
                         setup_value(item.next));
    } else {
      same.push_back(fmt::format("{} {}", item.label, setup_value(item.base)));
    }
  }
  if (!same.empty()) out += fmt::format("  the same: {}\n", join(same));
  return out;
}

}  // namespace

std::string render_text(const Comparison& comparison) {
  std::string out =
      fmt::format("bench compare: base {}, new {}\n", comparison.base_name, comparison.new_name);
  out += "change = (new - base) / base; worse = throughput down, latency up or errors up\n";
  out += setup_text(comparison);
  out += tables_text(comparison);
  if (!comparison.only_in_base.empty() || !comparison.only_in_new.empty()) out += "\n";
  if (!comparison.only_in_base.empty()) {
    out += fmt::format("Only in base (not compared): {}\n", join(comparison.only_in_base));
  }
  if (!comparison.only_in_new.empty()) {
    out += fmt::format("Only in new (not compared): {}\n", join(comparison.only_in_new));
  }
  if (comparison.threshold || !comparison.metric_thresholds.empty()) {
    out += regressions_text(comparison);
  }
  return out;
}

namespace {

json setup_json(const Comparison& comparison) {
  json items = json::array();
  for (const SetupItem& item : comparison.setup) {
    items.push_back({{"item", item.label},
                     {"base", item.base},
                     {"new", item.next},
                     {"changed", item.changed()}});
  }
  return items;
}

}  // namespace

json to_json(const Comparison& comparison) {
  json thresholds = json::object();
  for (const auto& [metric, fraction] : comparison.metric_thresholds) thresholds[metric] = fraction;
  auto optional_number = [](const std::optional<double>& value) {
    return value ? json(*value) : json();
  };
  json points = json::array();
  for (const PointComparison& point : comparison.points) {
    json rows = json::array();
    for (const Row& row : point.rows) {
      rows.push_back({{"metric", row.metric},
                      {"label", row.label},
                      {"unit", row.unit},
                      {"direction", direction_name(row.direction)},
                      {"base", optional_number(row.base_value)},
                      {"new", optional_number(row.new_value)},
                      {"change_pct", optional_number(row.change_pct)},
                      {"verdict", verdict_name(row.verdict)},
                      {"p_value", optional_number(row.p_value)},
                      {"detectable_change_pct", optional_number(row.detectable_pct)}});
    }
    points.push_back({{"point", point.label.empty() ? json() : json(point.label)},
                      {"rows", std::move(rows)},
                      {"base_repeats", point.base_repeats},
                      {"new_repeats", point.new_repeats},
                      {"noise_test", point.noise_aware() ? json("welch") : json()}});
  }
  return {{"schema_version", 1},
          {"kind", "comparison"},
          {"base", comparison.base_name},
          {"new", comparison.new_name},
          {"threshold", optional_number(comparison.threshold)},
          {"thresholds", std::move(thresholds)},
          {"sweep_variable",
           comparison.sweep_variable.empty() ? json() : json(comparison.sweep_variable)},
          {"points", std::move(points)},
          {"only_in_base", comparison.only_in_base},
          {"only_in_new", comparison.only_in_new},
          {"warnings", comparison.warnings},
          {"setup", setup_json(comparison)},
          {"regressions", comparison.regressions()},
          {"failed", comparison.failed()}};
}

}  // namespace bench::compare
