// The sweep's text chart. One line per point: the sweep value, a bar whose length is the total
// tok/s with its output part solid, then the output and total figures, each named, and the
// failures (across prefix shares, also the share the cache served). A scale with round ticks
// (the SVG writer's 1-2-5 steps) closes it.
#include "bench/report/terminal_chart.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {
namespace {

using nlohmann::json;

constexpr int kMinWidth = 60;
constexpr int kMinBarCells = 10;
constexpr int kScaleTicks = 4;

struct Glyphs {
  std::string_view output, input, side, corner_left, rule, corner_right;
};
constexpr Glyphs kUnicodeGlyphs{"\u2588", "\u2591", "\u2502", "\u2514", "\u2500", "\u2518"};
constexpr Glyphs kAsciiGlyphs{"#", ".", "|", "+", "-", "+"};

struct Row {
  std::string label;             // the sweep value
  std::optional<double> output;  // output tok/s
  std::optional<double> total;   // total tok/s
  std::string notes;             // failures, estimates
};

// Columns a string takes: one per code point (every glyph used here is one column wide).
int columns(std::string_view text) {
  int n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string repeat(std::string_view glyph, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += glyph;
  return out;
}

std::string pad_left(const std::string& text, int width) {
  return std::string(static_cast<std::size_t>(std::max(0, width - columns(text))), ' ') + text;
}

// Throughput at a precision that reads in a terminal: whole numbers from 100 tok/s up.
std::string rate(std::optional<double> value) {
  if (!value) return "-";
  return view::fixed(value, std::abs(*value) >= 100 ? 0 : 1);
}

// A line of an axis read by the cache (a prefix share) says what the cache served beside the
// value asked (its label): "cached n/a" when the server did not disclose it.
std::string cached_note(const json& point) { return "  cached " + view::cached_share_label(point); }

std::vector<Row> rows_of(const json& sweep, const json& points, const view::SweepAxis& axis) {
  std::vector<Row> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& point = points[i];
    if (!point.is_object()) {
      throw std::invalid_argument(fmt::format("sweep: points[{}] is not a JSON object", i));
    }
    Row row;
    row.label = axis.label(view::sweep_value(sweep, point, i));
    row.output = view::number(point, "output_throughput");
    row.total = view::number(point, "total_throughput");
    if (axis.cached_beside) row.notes += cached_note(point);
    const std::int64_t failed = view::count(point, "failed");
    if (failed > 0) {
      row.notes += fmt::format("  ! {} failed ({})", failed,
                               view::percent(failed, view::count(point, "sent")));
    }
    if (view::output_is_estimate(point)) row.notes += "  * output estimated";
    rows.push_back(std::move(row));
  }
  return rows;
}

double finite_or_zero(std::optional<double> v) { return v && std::isfinite(*v) ? *v : 0.0; }

// Column widths and the bar's scale, fitted to the rows and the terminal's width.
struct Layout {
  int label_w = 0, output_w = 0, total_w = 0, notes_w = 0;
  int bar_w = 0;
  svg::Ticks ticks;
  double scale_max = 1;

  int cells(double v) const {
    return std::clamp(static_cast<int>(std::lround(v / scale_max * bar_w)), 0, bar_w);
  }
};

Layout layout_of(const std::vector<Row>& rows, int width) {
  Layout layout;
  double peak = 0;
  for (const Row& r : rows) {
    layout.label_w = std::max(layout.label_w, columns(r.label));
    layout.output_w = std::max(layout.output_w, columns(rate(r.output)));
    layout.total_w = std::max(layout.total_w, columns(rate(r.total)));
    layout.notes_w = std::max(layout.notes_w, columns(r.notes));
    peak = std::max({peak, finite_or_zero(r.output), finite_or_zero(r.total)});
  }
  // value |bar| N output tok/s  N total tok/s notes
  const int figures_w = 1 + layout.output_w + 15 + layout.total_w + 12;
  layout.bar_w = std::max(
      kMinBarCells, std::max(width, kMinWidth) - layout.label_w - 3 - figures_w - layout.notes_w);
  layout.ticks = svg::linear_ticks(0, peak > 0 ? peak : 1, kScaleTicks);
  layout.scale_max = layout.ticks.hi > 0 ? layout.ticks.hi : 1;
  return layout;
}

// One point: its output share of the bar, then its input share up to the total.
std::string bar_line(const Row& r, const Layout& layout, const Glyphs& g) {
  const double output = finite_or_zero(r.output);
  const double total = std::max(output, finite_or_zero(r.total));
  int output_cells = layout.cells(output);
  if (output > 0 && output_cells == 0) output_cells = 1;  // a small output is still seen
  int total_cells = std::max(output_cells, layout.cells(total));
  // Input too small for a cell of its own still gets one, so no bar reads as all output.
  if (total > output && total_cells == output_cells && total_cells < layout.bar_w) ++total_cells;
  std::string bar = repeat(g.output, output_cells) + repeat(g.input, total_cells - output_cells);
  bar += std::string(static_cast<std::size_t>(layout.bar_w - total_cells), ' ');
  return fmt::format("{} {}{}{} {} output tok/s  {} total tok/s{}\n",
                     pad_left(r.label, layout.label_w), g.side, bar, g.side,
                     pad_left(rate(r.output), layout.output_w),
                     pad_left(rate(r.total), layout.total_w), r.notes);
}

// The scale: tick labels centred under their cell, dropped where they would collide.
std::string scale_lines(const Layout& layout, const Glyphs& g) {
  std::string out =
      fmt::format("{} {}{}{}\n", std::string(static_cast<std::size_t>(layout.label_w), ' '),
                  g.corner_left, repeat(g.rule, layout.bar_w), g.corner_right);
  std::string scale(static_cast<std::size_t>(layout.label_w + 2 + layout.bar_w + 8), ' ');
  int free_from = 0;
  for (double v : layout.ticks.values) {
    const std::string label = svg::tick_label(v, layout.ticks.step);
    const int at = layout.label_w + 1 + layout.cells(v);
    const int start = std::clamp(at - static_cast<int>(label.size()) / 2, 0,
                                 static_cast<int>(scale.size() - label.size()));
    if (start < free_from) continue;
    scale.replace(static_cast<std::size_t>(start), label.size(), label);
    free_from = start + static_cast<int>(label.size()) + 1;
  }
  while (!scale.empty() && scale.back() == ' ') scale.pop_back();
  return out + scale + "  total tok/s\n";
}

}  // namespace

std::string render_sweep_chart(const json& sweep, int width, TextCharset charset) {
  if (!sweep.is_object()) throw std::invalid_argument("sweep: expected a JSON object");
  const json* points = view::array_at(sweep, "points");
  if (points == nullptr) {
    if (sweep.contains("points")) throw std::invalid_argument("sweep: \"points\" is not an array");
    return "";
  }
  if (points->empty()) return "";
  const Glyphs& g = charset == TextCharset::kUnicode ? kUnicodeGlyphs : kAsciiGlyphs;
  const view::SweepAxis axis = view::sweep_axis(sweep);
  const std::vector<Row> rows = rows_of(sweep, *points, axis);
  const Layout layout = layout_of(rows, width);
  std::string out = fmt::format(
      "Token throughput by {}\n{}{} output tok/s  {} input tok/s  bar: total tok/s\n", axis.caption,
      std::string(static_cast<std::size_t>(layout.label_w + 2), ' '), g.output, g.input);
  for (const Row& r : rows) out += bar_line(r, layout, g);
  return out + scale_lines(layout, g);
}

}  // namespace bench::report
