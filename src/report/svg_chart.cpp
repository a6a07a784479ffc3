// The SVG writer. Layout from the top: title, legend (wrapped to the width), plot with grid,
// ticks and axis labels, then an optional note. Sizes of text are estimated (0.6 em a
// character), since the file carries no font: good enough to keep labels from colliding.
#include "bench/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace bench::report::svg {
namespace {

constexpr double kTitleFontPx = 15;
constexpr double kFontPx = 12;
constexpr double kSmallFontPx = 10.5;
constexpr double kLegendRowPx = 18;
constexpr double kCharEm = 0.6;         // average advance of a sans-serif character, in em
constexpr double kXTickSpacingPx = 85;  // about one x tick per this many pixels of width
constexpr double kYTickSpacingPx = 45;
constexpr const char* kFontFamily =
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', 'Liberation Sans', sans-serif";
constexpr const char* kGridColor = "#e3e6eb";
constexpr const char* kAxisColor = "#5f6672";
constexpr const char* kTextColor = "#1d2330";
constexpr const char* kMutedColor = "#5f6672";
constexpr const char* kBandColor = "#2e7d32";

double text_width_px(std::string_view text, double font_px) {
  // Count code points, not bytes, so "µs" or "–" is not measured twice as wide.
  std::size_t chars = 0;
  for (char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return static_cast<double>(chars) * font_px * kCharEm;
}

// Coordinates with one decimal: enough for a screen, and never "nan" (callers pass finite
// values only; a non-finite one would be a bug, and still prints as 0).
std::string px(double v) { return fmt::format("{:.1f}", std::isfinite(v) ? v : 0.0); }

// A value for a hover title: whole numbers as they are, else about four significant digits;
// grouped thousands.
std::string readable(double v) {
  const double magnitude = std::abs(v);
  if (magnitude >= 1000 || (v == std::floor(v) && magnitude < 1e15)) {
    return group_digits(fmt::format("{:.0f}", v));
  }
  if (magnitude >= 100) return fmt::format("{:.1f}", v);
  if (magnitude >= 1 || magnitude == 0) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

// Maps data values to pixels along one axis.
class Scale {
 public:
  Scale(const Ticks& ticks, bool log_scale, double px_from, double px_to)
      : log_(log_scale), lo_(t(ticks.lo)), hi_(t(ticks.hi)), px_from_(px_from), px_to_(px_to) {}
  double operator()(double v) const {
    const double span = hi_ - lo_;
    return px_from_ + (t(v) - lo_) / (span > 0 ? span : 1) * (px_to_ - px_from_);
  }

 private:
  double t(double v) const { return log_ ? std::log10(v) : v; }
  bool log_;
  double lo_, hi_, px_from_, px_to_;
};

bool usable(double v, const Axis& axis) { return std::isfinite(v) && (!axis.log_scale || v > 0); }

bool spans_width(Mark mark) { return mark != Mark::kLine && mark != Mark::kPoints; }

// The data's extent along each axis, with stacked bars added up per x.
struct Extent {
  double x_lo = std::numeric_limits<double>::infinity();
  double x_hi = -std::numeric_limits<double>::infinity();
  double y_lo = std::numeric_limits<double>::infinity();
  double y_hi = -std::numeric_limits<double>::infinity();
  bool empty() const { return !(x_hi >= x_lo); }
  void add_x(double v) { x_lo = std::min(x_lo, v), x_hi = std::max(x_hi, v); }
  void add_y(double v) { y_lo = std::min(y_lo, v), y_hi = std::max(y_hi, v); }
};

Extent data_extent(const Chart& chart) {
  Extent e;
  std::map<double, double> stacked;
  for (const Series& s : chart.series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], chart.x) || !usable(s.y[i], chart.y)) continue;
      e.add_x(s.x[i]);
      if (spans_width(s.mark) && std::isfinite(s.width_at(i))) e.add_x(s.x[i] + s.width_at(i));
      if (s.mark == Mark::kBars) {
        e.add_y(stacked[s.x[i]] += s.y[i]);
      } else {
        e.add_y(s.y[i]);
      }
      if (s.mark == Mark::kBars || s.mark == Mark::kArea) e.add_y(0);
    }
  }
  return e;
}

int tick_target(double length_px, double spacing_px) {
  return std::clamp(static_cast<int>(length_px / spacing_px), 3, 14);
}

Ticks fit_axis(const Axis& axis, double lo, double hi, bool empty, int tick_count) {
  if (empty) {
    lo = axis.log_scale ? 1 : 0;
    hi = axis.log_scale ? 10 : 1;
  }
  if (axis.min && usable(*axis.min, axis)) lo = *axis.min;
  if (axis.max && usable(*axis.max, axis)) hi = *axis.max;
  if (axis.log_scale) return log_ticks(lo, std::max(lo, hi));
  if (axis.include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
  Ticks ticks = linear_ticks(lo, hi, tick_count);
  // Fixed bounds are kept as given (a percentile axis ends at 100, not at a tick past it).
  if (axis.min) ticks.lo = lo;
  if (axis.max) ticks.hi = hi;
  return ticks;
}

std::string label_for(const Ticks& ticks, double value, bool log_scale) {
  return tick_label(value, log_scale ? value : ticks.step);
}

std::string dash_attr(const Series& s) { return s.dashed ? " stroke-dasharray=\"6 4\"" : ""; }

class Writer {
 public:
  explicit Writer(const Chart& chart) : chart_(chart) {}

  std::string render() {
    const Extent extent = data_extent(chart_);
    // The plot's size is known only after the y labels are measured: the tick counts come
    // from the chart's size less typical margins.
    xt_ = fit_axis(chart_.x, extent.x_lo, extent.x_hi, extent.empty(),
                   tick_target(chart_.width_px - 100.0, kXTickSpacingPx));
    yt_ = fit_axis(chart_.y, extent.y_lo, extent.y_hi, extent.empty(),
                   tick_target(chart_.height_px - 110.0, kYTickSpacingPx));
    layout();
    open();
    draw_legend();
    draw_grid_and_axes();
    draw_bands();
    if (extent.empty()) {
      text(px((left_ + right_) / 2), px((top_ + bottom_) / 2), "no data", kFontPx,
           "text-anchor=\"middle\" fill=\"" + std::string(kMutedColor) + "\"");
    }
    out_ += fmt::format("<g clip-path=\"url(#{}-clip)\">", escape_xml(chart_.id));
    // Fills under bars, bars under lines, so no series hides another's outline.
    for (const Series& s : chart_.series) {
      if (s.mark == Mark::kArea) draw_path(s, Layer::kFill);
    }
    draw_bars();
    for (const Series& s : chart_.series) {
      if (s.mark != Mark::kBars && s.mark != Mark::kPoints) draw_path(s, Layer::kStroke);
    }
    out_ += "</g>";
    for (const Series& s : chart_.series) draw_markers_and_labels(s);
    draw_band_labels();
    if (!chart_.note.empty()) {
      text(px(left_), px(chart_.height_px - 8.0), chart_.note, kSmallFontPx,
           "fill=\"" + std::string(kMutedColor) + "\"");
    }
    out_ += "</svg>";
    return std::move(out_);
  }

 private:
  void text(const std::string& x, const std::string& y, std::string_view content, double size,
            const std::string& extra = "") {
    out_ += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" {}>{}</text>", x, y, size, extra,
                        escape_xml(content));
  }

  // Legend rows are laid out first, since the plot starts below them.
  void layout() {
    const double w = chart_.width_px;
    double y_label_w = 0;
    for (double v : yt_.values) {
      y_label_w =
          std::max(y_label_w, text_width_px(label_for(yt_, v, chart_.y.log_scale), kFontPx));
    }
    left_ = 30 + y_label_w + 8;
    right_ = w - 22;
    double x = left_;
    double rows = chart_.series.empty() ? 0 : 1;
    for (const Series& s : chart_.series) {
      const double item = 22 + text_width_px(s.name, kFontPx) + 18;
      if (x + item > right_ && x > left_) x = left_, rows += 1;
      legend_.push_back({x, rows});
      x += item;
    }
    top_ = 30 + rows * kLegendRowPx + 14;
    bottom_ = chart_.height_px - 50.0 - (chart_.note.empty() ? 0 : 16);
  }

  void open() {
    const std::string id = escape_xml(chart_.id);
    out_ += fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{w}\" height=\"{h}\" "
        "viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" "
        "font-family=\"{font}\" fill=\"{text}\">"
        "<title id=\"{id}-title\">{title}</title><desc id=\"{id}-desc\">{desc}</desc>"
        "<defs><clipPath id=\"{id}-clip\"><rect x=\"{l}\" y=\"{t}\" width=\"{pw}\" "
        "height=\"{ph}\"/></clipPath></defs>"
        "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>",
        fmt::arg("w", chart_.width_px), fmt::arg("h", chart_.height_px), fmt::arg("id", id),
        fmt::arg("font", kFontFamily), fmt::arg("text", kTextColor),
        fmt::arg("title", escape_xml(chart_.title)),
        fmt::arg("desc", escape_xml(chart_.description)), fmt::arg("l", px(left_)),
        fmt::arg("t", px(top_ - 6)), fmt::arg("pw", px(right_ - left_)),
        fmt::arg("ph", px(bottom_ - top_ + 6)));
    text(px(12), px(22), chart_.title, kTitleFontPx, "font-weight=\"600\"");
  }

  void draw_legend() {
    for (std::size_t i = 0; i < chart_.series.size(); ++i) {
      const Series& s = chart_.series[i];
      const double x = legend_[i].first;
      const double y = 30 + legend_[i].second * kLegendRowPx - 4;
      const std::string color = escape_xml(s.color);
      if (s.mark == Mark::kBars || s.mark == Mark::kArea) {
        out_ += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" rx=\"2\" fill=\"{}\"{}/>", px(x),
            px(y - 8), color, s.mark == Mark::kArea ? " fill-opacity=\"0.45\"" : "");
      } else if (s.mark == Mark::kPoints) {
        out_ += fmt::format(
            "<circle cx=\"{}\" cy=\"{}\" r=\"3.6\" fill=\"#ffffff\" stroke=\"{}\" "
            "stroke-width=\"2\"/>",
            px(x + 8), px(y - 3), color);
      } else {
        out_ += fmt::format(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>",
            px(x), px(y - 3), px(x + 16), px(y - 3), color, dash_attr(s));
      }
      text(px(x + 22), px(y + 1), s.name, kFontPx);
    }
  }

  void draw_grid_and_axes() {
    const Scale sx(xt_, chart_.x.log_scale, left_, right_);
    const Scale sy(yt_, chart_.y.log_scale, bottom_, top_);
    out_ += "<g class=\"grid\">";
    for (double v : yt_.values) {
      out_ += fmt::format("<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{}\"/>",
                          px(left_), px(right_), kGridColor, fmt::arg("y", px(sy(v))));
    }
    for (double v : xt_.values) {
      out_ += fmt::format("<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{}\"/>",
                          px(top_), px(bottom_), kGridColor, fmt::arg("x", px(sx(v))));
    }
    out_ += "</g>";
    out_ += fmt::format(
        "<path d=\"M{l} {t}V{b}H{r}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1\"/>",
        fmt::arg("l", px(left_)), fmt::arg("t", px(top_)), fmt::arg("b", px(bottom_)),
        fmt::arg("r", px(right_)), fmt::arg("c", kAxisColor));
    const std::string muted = fmt::format("fill=\"{}\"", kMutedColor);
    for (double v : yt_.values) {
      text(px(left_ - 7), px(sy(v) + 4), label_for(yt_, v, chart_.y.log_scale), kFontPx,
           "text-anchor=\"end\" " + muted);
    }
    for (double v : xt_.values) {
      text(px(sx(v)), px(bottom_ + 17), label_for(xt_, v, chart_.x.log_scale), kFontPx,
           "text-anchor=\"middle\" " + muted);
    }
    text(px((left_ + right_) / 2), px(bottom_ + 38), chart_.x.label, kFontPx,
         "text-anchor=\"middle\"");
    const double mid_y = (top_ + bottom_) / 2;
    text(px(16), px(mid_y), chart_.y.label, kFontPx,
         fmt::format("text-anchor=\"middle\" transform=\"rotate(-90 16 {})\"", px(mid_y)));
  }

  void draw_bands() {
    const Scale sx(xt_, chart_.x.log_scale, left_, right_);
    for (const Band& band : chart_.bands) {
      if (!usable(band.x_from, chart_.x) || !usable(band.x_to, chart_.x)) continue;
      const double from = std::clamp(sx(band.x_from), left_, right_);
      const double to = std::clamp(sx(band.x_to), left_, right_);
      if (!(to > from)) continue;
      out_ += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.08\" "
          "stroke=\"{}\" stroke-opacity=\"0.35\" stroke-dasharray=\"3 3\"/>",
          px(from), px(top_), px(to - from), px(bottom_ - top_), kBandColor, kBandColor);
      band_labels_.emplace_back(from, band.label);
    }
  }

  // Over the data, on a white backing, so a tall bar cannot hide the label.
  void draw_band_labels() {
    for (const auto& [from, label] : band_labels_) {
      const double w = text_width_px(label, kSmallFontPx) + 8;
      out_ += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"15\" rx=\"3\" fill=\"#ffffff\" "
          "fill-opacity=\"0.85\"/>",
          px(from + 2), px(top_ + 2), px(w));
      text(px(from + 6), px(top_ + 13), label, kSmallFontPx,
           fmt::format("fill=\"{}\"", kBandColor));
    }
  }

  std::string point_title(const Series& s, double x, double y) const {
    return fmt::format("{}: {} ({}: {})", s.name, readable(y), chart_.x.label, readable(x));
  }

  void draw_bars() {
    const Scale sx(xt_, chart_.x.log_scale, left_, right_);
    const Scale sy(yt_, chart_.y.log_scale, bottom_, top_);
    std::map<double, double> base;
    for (const Series& s : chart_.series) {
      if (s.mark != Mark::kBars) continue;
      const std::size_t n = std::min(s.x.size(), s.y.size());
      for (std::size_t i = 0; i < n; ++i) {
        const bool drawable =
            usable(s.x[i], chart_.x) && usable(s.y[i], chart_.y) && std::isfinite(s.width_at(i));
        if (!drawable) continue;
        const double x0 = sx(s.x[i]);
        const double x1 = sx(s.x[i] + s.width_at(i));
        const double gap = std::min(3.0, std::abs(x1 - x0) * 0.12);
        double& below = base[s.x[i]];
        const double y0 = sy(below);
        const double y1 = sy(below + s.y[i]);
        below += s.y[i];
        out_ += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title>"
            "</rect>",
            px(std::min(x0, x1) + gap / 2), px(std::min(y0, y1)),
            px(std::max(0.0, std::abs(x1 - x0) - gap)), px(std::abs(y0 - y1)), escape_xml(s.color),
            escape_xml(point_title(s, s.x[i], s.y[i])));
      }
    }
  }

  enum class Layer { kFill, kStroke };

  void draw_path(const Series& s, Layer layer) {
    const Scale sx(xt_, chart_.x.log_scale, left_, right_);
    const Scale sy(yt_, chart_.y.log_scale, bottom_, top_);
    const bool stepped = s.mark == Mark::kStep || s.mark == Mark::kArea;
    const double baseline = sy(chart_.y.log_scale ? yt_.lo : std::clamp(0.0, yt_.lo, yt_.hi));
    std::string line;
    std::string area;
    bool open = false;
    double run_start_px = 0;
    double last_x = 0;
    double last_px = 0;
    auto close_area = [&] {
      if (open && s.mark == Mark::kArea) {
        area += fmt::format("V{}H{}Z", px(baseline), px(run_start_px));
      }
    };
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], chart_.x) || !usable(s.y[i], chart_.y)) {
        close_area();
        open = false;
        continue;
      }
      const double x = sx(s.x[i]);
      const double y = sy(s.y[i]);
      const bool contiguous =
          open && (!stepped || std::abs(s.x[i] - last_x) <= std::abs(s.bar_width) * 1e-6 + 1e-12);
      if (!contiguous) {
        close_area();
        line += fmt::format("M{} {}", px(x), px(y));
        if (s.mark == Mark::kArea) area += fmt::format("M{} {}V{}", px(x), px(baseline), px(y));
        run_start_px = x;
      } else if (stepped) {
        line += fmt::format("V{}", px(y));
        if (s.mark == Mark::kArea) area += fmt::format("V{}", px(y));
      } else {
        line += fmt::format("L{} {}", px(x), px(y));
      }
      if (stepped) {
        last_x = s.x[i] + s.width_at(i);
        last_px = sx(last_x);
        line += fmt::format("H{}", px(last_px));
        if (s.mark == Mark::kArea) area += fmt::format("H{}", px(last_px));
      }
      open = true;
    }
    close_area();
    write_path(s, layer, line, area);
  }

  // One layer of a series' path: the area under it (kFill) or its line (kStroke), if any.
  void write_path(const Series& s, Layer layer, const std::string& line, const std::string& area) {
    if (layer == Layer::kFill) {
      if (!area.empty()) {
        out_ += fmt::format("<path d=\"{}\" fill=\"{}\" fill-opacity=\"0.22\" stroke=\"none\"/>",
                            area, escape_xml(s.color));
      }
      return;
    }
    if (!line.empty()) {
      out_ += fmt::format(
          "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.2\" "
          "stroke-linejoin=\"round\" stroke-linecap=\"round\"{}/>",
          line, escape_xml(s.color), dash_attr(s));
    }
  }

  void draw_markers_and_labels(const Series& s) {
    const bool markers = s.markers || s.mark == Mark::kPoints;
    if (!markers && s.point_labels.empty()) return;
    const Scale sx(xt_, chart_.x.log_scale, left_, right_);
    const Scale sy(yt_, chart_.y.log_scale, bottom_, top_);
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], chart_.x) || !usable(s.y[i], chart_.y)) continue;
      const double x = sx(s.x[i]);
      const double y = sy(s.y[i]);
      if (x < left_ - 1 || x > right_ + 1 || y < top_ - 1 || y > bottom_ + 1) continue;
      if (markers) {
        out_ += fmt::format(
            "<circle cx=\"{}\" cy=\"{}\" r=\"3.6\" fill=\"#ffffff\" stroke=\"{}\" "
            "stroke-width=\"2\"><title>{}</title></circle>",
            px(x), px(y), escape_xml(s.color), escape_xml(point_title(s, s.x[i], s.y[i])));
      }
      if (i < s.point_labels.size() && !s.point_labels[i].empty()) {
        place_point_label(s.point_labels[i], x, y);
      }
    }
  }

  // Above right of the point, else below right, else to the left; left out when every place
  // collides with a label already drawn (the hover title still carries the value).
  void place_point_label(const std::string& label, double x, double y) {
    const double w = text_width_px(label, kSmallFontPx);
    const double h = kSmallFontPx;
    const Box candidates[] = {
        {x + 6, y - 7 - h, x + 6 + w, y - 7},
        {x + 6, y + 7, x + 6 + w, y + 7 + h},
        {x - 6 - w, y - 7 - h, x - 6, y - 7},
        {x - 6 - w, y + 7, x - 6, y + 7 + h},
    };
    for (const Box& box : candidates) {
      if (box.x0 < left_ || box.x1 > right_ + 16 || box.y0 < top_ - 16 || box.y1 > bottom_) {
        continue;
      }
      bool clear = true;
      for (const Box& other : placed_labels_) clear = clear && !box.overlaps(other);
      if (!clear) continue;
      placed_labels_.push_back(box);
      // A white halo (stroke painted under the fill) keeps the label legible over a line.
      text(px(box.x0), px(box.y1 - 1.5), label, kSmallFontPx,
           fmt::format("fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"3\" "
                       "stroke-linejoin=\"round\" paint-order=\"stroke\"",
                       kMutedColor));
      return;
    }
  }

  const Chart& chart_;
  Ticks xt_, yt_;
  double left_ = 0, right_ = 0, top_ = 0, bottom_ = 0;
  std::vector<std::pair<double, double>> legend_;            // per series: x, row
  std::vector<std::pair<double, std::string>> band_labels_;  // x in pixels, text
  struct Box {
    double x0, y0, x1, y1;
    bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  };
  std::vector<Box> placed_labels_;  // point labels drawn so far, to keep them apart
  std::string out_;
};

}  // namespace

std::string render_chart(const Chart& chart) { return Writer(chart).render(); }

Series cdf_series(std::string name, const std::vector<std::pair<double, double>>& points,
                  std::string color) {
  Series s;
  s.name = std::move(name);
  s.color = std::move(color);
  for (const auto& [percentile, value] : points) {
    if (!std::isfinite(percentile) || !std::isfinite(value)) continue;
    s.x.push_back(value);
    s.y.push_back(percentile);
  }
  return s;
}

}  // namespace bench::report::svg
