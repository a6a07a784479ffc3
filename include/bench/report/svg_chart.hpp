#pragma once
// A small SVG writer for the charts of the HTML report: line charts with several series and a
// legend, CDF plots, and bar or area timelines. Self-contained SVG 1.1: no script, no external
// font, no network. Ticks fall on round numbers (1-2-5 steps), every axis carries a label with
// its unit, every chart an accessible <title> and <desc>, and every piece of text is escaped
// for XML. Points whose x or y is NaN or infinite (or not positive on a log axis) are skipped,
// so a chart never prints "nan".
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench::report::svg {

/// How a series is drawn.
enum class Mark {
  kLine,    // straight segments between points (a gap where a point is skipped)
  kStep,    // horizontal steps: the value holds from one x until the next (per-bucket counts)
  kArea,    // a step line filled down to the axis
  kBars,    // one bar per point, `bar_width` wide starting at x; bars of a chart stack
  kPoints,  // a dot at each point and no line (points that are not on a curve)
};

struct Series {
  std::string name{};             // legend label, with its unit when the axis has several
  std::vector<double> x{}, y{};   // same length; a pair with a non-finite value is skipped
  std::string color = "#1f5fbf";  // any CSS colour
  Mark mark = Mark::kLine;
  bool dashed = false;   // lines only
  bool markers = false;  // a dot at each point, with a hover <title> of its values
  std::vector<std::string> point_labels{};  // optional text beside each point (e.g. "c=64")
  double bar_width = 1.0;        // kBars/kStep/kArea: width of each point's span, in x units
  std::vector<double> widths{};  // per point, when spans differ (a timeline's partial last bucket)

  double width_at(std::size_t i) const { return i < widths.size() ? widths[i] : bar_width; }
};

struct Axis {
  std::string label;               // name and unit, e.g. "time since start (s)"
  bool log_scale = false;          // base 10; ticks at 1, 2, 5 x 10^k
  bool include_zero = false;       // linear axes: the range reaches down (or up) to 0
  std::optional<double> min, max;  // fixed bounds instead of ones fitted to the data
};

/// A shaded stretch of the x axis, e.g. the steady-state window of a timeline.
struct Band {
  double x_from = 0, x_to = 0;
  std::string label;
};

struct Chart {
  std::string id;           // unique within the page: prefixes the ids of <title> and <desc>
  std::string title;        // shown above the plot and as the SVG's <title>
  std::string description;  // the SVG's <desc>: what the chart shows, for screen readers
  Axis x, y;
  std::vector<Series> series;
  std::vector<Band> bands;
  std::string note;  // small text under the plot (e.g. what was left out)
  int width_px = 560;
  int height_px = 340;
};

/// The chart as one <svg> element (no XML declaration, so it can be inlined in HTML).
std::string render_chart(const Chart& chart);

/// A CDF series from (percentile, value) pairs as in the results' "distributions": x is the
/// value, y the percentile (0-100). Pairs that are not two finite numbers are skipped.
Series cdf_series(std::string name, const std::vector<std::pair<double, double>>& points,
                  std::string color);

/// Text escaped for XML and HTML (& < > " '). Control characters other than tab, newline and
/// carriage return, which XML 1.0 forbids, and invalid UTF-8 become U+FFFD.
std::string escape_xml(std::string_view text);

/// Tick positions for an axis spanning [lo, hi] (after fitting, as drawn).
struct Ticks {
  double lo = 0, hi = 1;       // the axis bounds: widened to the outer ticks
  std::vector<double> values;  // in increasing order, lo and hi included
  double step = 1;             // linear axes: distance between ticks
};

/// Linear ticks at multiples of 1, 2 or 5 x 10^k, about `target_count` of them, covering
/// [lo, hi]. A degenerate range is widened around its value.
Ticks linear_ticks(double lo, double hi, int target_count = 5);

/// Log-axis ticks at 1, 2 and 5 x 10^k (only 10^k when the range spans more than three
/// decades), covering [lo, hi]; both must be positive.
Ticks log_ticks(double lo, double hi);

/// A formatted number ("-12345.6") with commas between its thousands ("-12,345.6").
std::string group_digits(std::string_view number);

/// A tick label: as many decimals as the step needs, a "k" suffix once the step reaches 1 000
/// ("15k") and "M" once it reaches 500 000 ("2.5M"), grouped thousands otherwise ("2,500");
/// never an exponent. Log axes pass the value itself as the step.
std::string tick_label(double value, double step);

}  // namespace bench::report::svg
