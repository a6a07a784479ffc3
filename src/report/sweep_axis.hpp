#pragma once
// What a sweep's points differ in (concurrency, request rate, prefix share), read once from its
// sweep.variable. Every word a renderer says of the axis (a label, a unit, a caption, a note, a
// chart's axis) is a field here, one row per axis in sweep_axis.cpp's table, so no renderer asks
// which axis it has: a new axis is a new row (docs/architecture.md, "A new sweep axis").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::report::view {

struct SweepAxis {
  std::string_view variable{};   // the results file's name: "concurrency", "request_rate", ...
  std::string_view point_key{};  // the point's own key for its value: "max_concurrency", ...
  // Whether the points differ in load. A prefix-share sweep runs one load at every point and
  // varies how much of each prompt a prefix cache could serve: its points are no load curve
  // (no saturation, no frontier of load), and its values are not drawn on a log scale.
  bool is_load = true;
  // A value times this is the number the labels use: 100 for a share written in percent.
  double shown_scale = 1;
  bool percent = false;  // a value reads as a percentage: "50%"
  // The point's setting is a whole count (requests in flight): the text table writes the
  // integer.
  bool whole_count = false;
  // The points are read by what the server's cache served: the tables put the cached share
  // beside the value, the terminal chart notes it on each line.
  bool cached_beside = false;

  // Words every renderer uses.
  std::string_view noun{};   // before a value: "concurrency 4", "rate 2", "prefix share 50%"
  std::string_view title{};  // in headings: "... vs request rate", "... by prefix share"

  // The text report.
  std::string_view column{};        // the sweep table's first column: "rate (r/s)", "prefix share"
  std::string_view column_under{};  // the line under it: "asked" (what the points asked for)
  std::string_view caption{};       // the terminal chart's title: "Token throughput by {caption}"
  std::string_view text_table_note{};  // what the sweep table's note adds of this axis

  // The HTML report.
  std::string_view page_kind{};        // the kicker: "bench results: {page_kind} sweep, 3 points"
  std::string_view values_title{};     // the header's list of values: "Request rates"
  std::string_view values_unit{};      // after that list: " req/s"
  std::string_view heading_unit{};     // under the sweep table's first heading (the noun)
  std::string_view value_unit{};       // after a point's value in its summary: " req/s"
  std::string_view html_table_note{};  // what the sweep table's note adds of this axis
  std::string_view chart_axis{};       // the throughput chart's x axis
  // A dot's label on the latency charts: prefix, value, suffix ("c=64", "2.5/s", "50% shared"),
  // or `dot_unlimited` for an infinite value when not empty ("no rate limit").
  std::string_view dot_prefix{};
  std::string_view dot_suffix{};
  std::string_view dot_unlimited{};
  std::string_view letter{};      // the frontier chart's dots: "c=64", "r=2.5", "s=50%"
  std::string_view unplotted{};   // the throughput chart's note on a point without a value
  std::string_view chart_note{};  // what the throughput chart's description adds of this axis

  // The efficiency frontier: a load's points are operating points to choose from; other axes'
  // are not, and their titles and notes say so.
  std::string_view frontier_title{};    // the text table's first line
  std::string_view frontier_note{};     // after the text table's note
  std::string_view frontier_heading{};  // the HTML section's heading
  std::string_view frontier_chart_title{};
  std::string_view frontier_chart_note{};

  /// A value as people read it: "64", "2.5", "inf"; a share as "50%" (up to one decimal,
  /// "33.3%"); "-" when unknown.
  std::string label(std::optional<double> value) const;
};

/// The axis of a sweep: by sweep.variable, "concurrency" when missing or unknown (files from
/// before the variable was written swept concurrency).
SweepAxis sweep_axis(const nlohmann::json& sweep);

/// The sweep variable's value at point `index`: sweep.values[index], else the point's own
/// setting (the axis's point_key). Infinity for an unlimited rate; a share as 0..1.
std::optional<double> sweep_value(const nlohmann::json& sweep, const nlohmann::json& point,
                                  std::size_t index);

}  // namespace bench::report::view
