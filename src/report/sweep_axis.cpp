// The sweep axes, one row each: the only place that tells one axis from another.
#include "sweep_axis.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "results_view.hpp"

namespace bench::report::view {
namespace {

// A load's words for the efficiency frontier, the same for every load.
constexpr std::string_view kLoadFrontierTitle =
    "Efficiency frontier: output tok/s per GPU vs output tok/s per user\n";
constexpr std::string_view kLoadFrontierHeading = "Efficiency frontier";
constexpr std::string_view kLoadFrontierChartTitle =
    "Efficiency frontier: token throughput per GPU vs output tok/s per user";
constexpr std::string_view kLoadFrontierChartNote =
    "Pareto front: no other point has as much output per GPU and per user, and more of one. c/r "
    "= the point's concurrency / rate.";
constexpr std::string_view kNoRateLimit = "Not on the x axis (no rate limit): ";

// The first row is the default: files from before sweep.variable swept concurrency.
constexpr std::array<SweepAxis, 3> kSweepAxes = {{
    {.variable = "concurrency",
     .point_key = results::key::max_concurrency,
     .whole_count = true,
     .noun = "concurrency",
     .title = "concurrency",
     .column = "concurrency",
     .caption = "concurrency (requests in flight)",
     .page_kind = "concurrency",
     .values_title = "Concurrency",
     .values_unit = " max in flight",
     .heading_unit = "max in flight",
     .chart_axis = "concurrency (max requests in flight)",
     .dot_prefix = "c=",
     .letter = "c",
     .unplotted = kNoRateLimit,
     .frontier_title = kLoadFrontierTitle,
     .frontier_heading = kLoadFrontierHeading,
     .frontier_chart_title = kLoadFrontierChartTitle,
     .frontier_chart_note = kLoadFrontierChartNote},
    {.variable = results::key::request_rate,
     .point_key = results::key::request_rate,
     .noun = "rate",
     .title = "request rate",
     .column = "rate (r/s)",
     .caption = "request rate (req/s; inf = no limit)",
     .page_kind = "request-rate",
     .values_title = "Request rates",
     .values_unit = " req/s",
     .heading_unit = "req/s offered",
     .value_unit = " req/s",
     .chart_axis = "request rate offered (req/s)",
     .dot_suffix = "/s",
     .dot_unlimited = "no rate limit",
     .letter = "r",
     .unplotted = kNoRateLimit,
     .frontier_title = kLoadFrontierTitle,
     .frontier_heading = kLoadFrontierHeading,
     .frontier_chart_title = kLoadFrontierChartTitle,
     .frontier_chart_note = kLoadFrontierChartNote},
    {.variable = results::key::prefix_share,
     .point_key = results::key::prefix_share,
     .is_load = false,
     .shown_scale = 100,
     .percent = true,
     .cached_beside = true,
     .noun = "prefix share",
     .title = "prefix share",
     .column = "prefix share",
     .column_under = "asked",
     .caption = "prefix share (% of each prompt shared; same load)",
     .text_table_note =
         "prefix share: share of each prompt asked to be a system prompt shared by every request\n"
         "of the point (what a warm prefix cache could serve); cached: what the cache served.\n"
         "The load is the same at every point: the points differ in their prompts, not in load.\n",
     .page_kind = "prefix-share",
     .values_title = "Prefix shares",
     .values_unit = " of each prompt shared by every request",
     .heading_unit = "asked, % of each prompt",
     .html_table_note =
         " prefix share: the share of each prompt asked to be a system prompt every request of "
         "the point shares, what a warm prefix cache could serve; the load is the same at every "
         "point.",
     .chart_axis = "prefix share asked (% of each prompt shared by every request)",
     .dot_suffix = " shared",
     .letter = "s",
     .unplotted = "Not on the x axis (share not recorded): ",
     .chart_note = " The load is the same at every point; only the prompts differ.",
     .frontier_title =
         "Efficiency by prefix share (not a load frontier): output tok/s per GPU vs per user\n",
     // Across shares the load is fixed and the prompts differ: the front says which shares gave
     // more of both, which is no operating point to choose, as a load would be.
     .frontier_note =
         "\nNot a load frontier: every point ran the same load; they differ in the share of each"
         "\nprompt a prefix cache could serve. A Pareto point is a share that gave more of both,"
         "\nnot a load to run at: the share is the workload's, not the server's setting.",
     .frontier_heading = "Efficiency by prefix share (not a load frontier)",
     .frontier_chart_title = "Efficiency by prefix share (not a load frontier): token throughput "
                             "per GPU vs output tok/s per user",
     // The same load at every point: the front ranks the shares, it offers no load to pick.
     .frontier_chart_note =
         "Every point ran the same load; they differ in the share of each prompt a prefix cache "
         "could serve, so this is no load frontier: a Pareto point is a share that gave more of "
         "both, not a load to run at. s = the point's prefix share asked."},
}};

}  // namespace

SweepAxis sweep_axis(const json& sweep) {
  const json* spec = object_at(sweep, results::key::sweep);
  const std::string variable = spec != nullptr ? text(*spec, results::key::variable) : "";
  const auto found = std::find_if(kSweepAxes.begin(), kSweepAxes.end(),
                                  [&](const SweepAxis& axis) { return axis.variable == variable; });
  return found != kSweepAxes.end() ? *found : kSweepAxes.front();
}

std::string SweepAxis::label(std::optional<double> value) const {
  if (!percent || !value || !std::isfinite(*value)) return value_label(value);
  // One decimal at most: 0.95 is "95%", 1/3 "33.3%", never "33.333333%".
  std::string digits = fmt::format("{:.1f}", *value * shown_scale);
  if (digits.ends_with(".0")) digits.resize(digits.size() - 2);
  return digits + "%";
}

std::optional<double> sweep_value(const json& sweep, const json& point, std::size_t index) {
  const json* spec = object_at(sweep, results::key::sweep);
  const json* values = spec != nullptr ? array_at(*spec, results::key::values) : nullptr;
  if (values != nullptr && index < values->size()) {
    if (auto v = results::number_from_json((*values)[index])) return v;
  }
  return number(point, sweep_axis(sweep).point_key);
}

}  // namespace bench::report::view
