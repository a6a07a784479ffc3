#pragma once
// A point measured N times (--repeat N) as one results object: the figures of its repeats
// combined under the usual keys, the `repeats` summary (the mean and the 95% confidence
// interval, Student's t, of each key figure across repeats), and every repeat's own results
// under `repeat_runs`. Gates read the combined keys (the mean) or each repeat (--gate-on
// worst); `bench compare` tests the repeats' values (Welch's t-test).
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::results {

/// The confidence of every interval bench reports across repeats.
inline constexpr double kRepeatConfidence = 0.95;

/// A figure summarized across repeats, with how reports show it.
struct RepeatedFigure {
  std::string_view key;    // its results key
  std::string_view label;  // as reports name it, with its unit
  int decimals;
  bool shown_when_unknown = true;  // false: left out of reports when no repeat measured it
};

/// The figures summarized across repeats, in report order: every throughput (output, input,
/// total, request), the median and p99 of TTFT, TPOT, ITL and E2E latency, and the efficiency
/// figures (per GPU, per user, cost, energy). The one list: the JSON summary and the reports
/// read it.
std::span<const RepeatedFigure> repeated_figures();

/// The results object of one point measured `runs.size()` >= 2 times. Keys are those of the
/// first repeat; where the repeats differ, a number holds their mean, a bool is true when any
/// repeat's is, and any other value (a string, an array such as the timeline) is the first
/// repeat's. Adds `repeats` ({count, confidence, interval: "student_t", figures: {key: {mean,
/// std, half_width, low, high, values}}}; a figure unknown in some repeat is null) and
/// `repeat_runs` (the repeats' objects, in order).
nlohmann::json combine_repeats(const std::vector<nlohmann::json>& runs);

/// `key`'s value in each repeat of a combined point; nullopt when the point has no repeats or a
/// repeat lacks a numeric value for it.
std::optional<std::vector<double>> repeat_values(const nlohmann::json& point, std::string_view key);

/// The number of repeats of a point; 1 for a point measured once.
std::size_t repeat_count(const nlohmann::json& point);

}  // namespace bench::results
