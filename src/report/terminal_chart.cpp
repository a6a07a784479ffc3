// The sweep's text chart. One line per point: the sweep value, a bar whose length is the total
// tok/s with its output part solid, then the output and total figures, each named, and the
// failures. A scale with round ticks (the SVG writer's 1-2-5 steps) closes it.
#include "bench/report/terminal_chart.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "results_view.hpp"

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

std::vector<Row> rows_of(const json& sweep, const json& points) {
  std::vector<Row> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& point = points[i];
    if (!point.is_object()) {
      throw std::invalid_argument(fmt::format("sweep: points[{}] is not a JSON object", i));
    }
    Row row;
    row.label = view::value_label(view::sweep_value(sweep, point, i));
    row.output = view::number(point, "output_throughput");
    row.total = view::number(point, "total_throughput");
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
  const std::vector<Row> rows = rows_of(sweep, *points);
  const bool by_rate = view::sweep_variable(sweep) == "request_rate";

  int label_w = 0, output_w = 0, total_w = 0, notes_w = 0;
  double peak = 0;
  for (const Row& r : rows) {
    label_w = std::max(label_w, columns(r.label));
    output_w = std::max(output_w, columns(rate(r.output)));
    total_w = std::max(total_w, columns(rate(r.total)));
    notes_w = std::max(notes_w, columns(r.notes));
    peak = std::max({peak, finite_or_zero(r.output), finite_or_zero(r.total)});
  }
  // value |bar| N output tok/s  N total tok/s notes
  const int figures_w = 1 + output_w + 15 + total_w + 12;
  const int bar_w =
      std::max(kMinBarCells, std::max(width, kMinWidth) - label_w - 3 - figures_w - notes_w);
  const svg::Ticks ticks = svg::linear_ticks(0, peak > 0 ? peak : 1, kScaleTicks);
  const double scale_max = ticks.hi > 0 ? ticks.hi : 1;
  auto cells = [&](double v) {
    return std::clamp(static_cast<int>(std::lround(v / scale_max * bar_w)), 0, bar_w);
  };

  std::string out = fmt::format(
      "Token throughput by {}\n{}{} output tok/s  {} input tok/s  bar: total tok/s\n",
      by_rate ? "request rate (req/s; inf = no limit)" : "concurrency (requests in flight)",
      std::string(static_cast<std::size_t>(label_w + 2), ' '), g.output, g.input);
  for (const Row& r : rows) {
    const double output = finite_or_zero(r.output);
    const double total = std::max(output, finite_or_zero(r.total));
    int output_cells = cells(output);
    if (output > 0 && output_cells == 0) output_cells = 1;  // a small output is still seen
    int total_cells = std::max(output_cells, cells(total));
    // Input too small for a cell of its own still gets one, so no bar reads as all output.
    if (total > output && total_cells == output_cells && total_cells < bar_w) ++total_cells;
    std::string bar = repeat(g.output, output_cells) + repeat(g.input, total_cells - output_cells);
    bar += std::string(static_cast<std::size_t>(bar_w - total_cells), ' ');
    out += fmt::format("{} {}{}{} {} output tok/s  {} total tok/s{}\n", pad_left(r.label, label_w),
                       g.side, bar, g.side, pad_left(rate(r.output), output_w),
                       pad_left(rate(r.total), total_w), r.notes);
  }

  // The scale: tick labels centred under their cell, dropped where they would collide.
  out += fmt::format("{} {}{}{}\n", std::string(static_cast<std::size_t>(label_w), ' '),
                     g.corner_left, repeat(g.rule, bar_w), g.corner_right);
  std::string scale(static_cast<std::size_t>(label_w + 2 + bar_w + 8), ' ');
  int free_from = 0;
  for (double v : ticks.values) {
    const std::string label = svg::tick_label(v, ticks.step);
    const int at = label_w + 1 + cells(v);
    const int start = std::clamp(at - static_cast<int>(label.size()) / 2, 0,
                                 static_cast<int>(scale.size() - label.size()));
    if (start < free_from) continue;
    scale.replace(static_cast<std::size_t>(start), label.size(), label);
    free_from = start + static_cast<int>(label.size()) + 1;
  }
  while (!scale.empty() && scale.back() == ' ') scale.pop_back();
  out += scale + "  total tok/s\n";
  return out;
}

}  // namespace bench::report
