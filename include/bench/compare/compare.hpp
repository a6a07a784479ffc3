#pragma once
// `bench compare BASE.json NEW.json [--fail-on-regression 5%]` (issue 3, item 6): each key
// metric of two results files side by side, with the change in %, judged by the metric's
// direction (throughput down, latency up, errors up = worse). Two single runs, or two sweeps
// whose points are matched by the swept variable's value.
//
// Noise: when both sides were measured several times (--repeat N, N >= 2), each figure's
// repeats are held against each other with Welch's t-test (two-sided, unequal variances): a
// change is called better, worse or a regression only when p < 0.05, else it is below the
// detectable change, whatever its size. Each row then gives the smallest change the test could
// have called real (t(0.975, df) x the standard error of the difference, in % of base). Single
// runs carry no noise estimate: changes are judged by their size alone, and the report says so.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::compare {

/// A change smaller than this, in %, is below what the report's two decimals show: it is shown
/// as 0.00% and judged the same, never "-0.00% better".
inline constexpr double kNegligibleChangePct = 0.005;

/// Proposed exit code of `bench compare` when a regression exceeds --fail-on-regression: the
/// same code as a failed gate (a threshold the user set was not met).
inline constexpr int kExitRegression = 4;

/// Why two files cannot be compared, or a flag value was refused: one line naming the file,
/// flag or value.
struct CompareError {
  std::string message;
};

enum class Direction { higher_is_better, lower_is_better };

enum class Verdict {
  same,              // no change
  better,            // moved in the metric's good direction
  worse,             // moved in its bad direction, within the threshold (or no threshold set)
  regression,        // worse by more than the threshold
  not_comparable,    // missing (or not a number) on one side or both
  below_detectable,  // repeats on both sides, and Welch's t-test finds no real change (p >= 0.05)
};

/// The significance level of the noise test: a change is real when p < this.
inline constexpr double kSignificance = 0.05;

struct Row {
  std::string metric;  // the results key ("output_throughput"), or "error_rate" (failed / sent)
  std::string label;   // "Output token throughput"
  std::string unit;    // "output tok/s", "req/s", "ms", "% of sent": never a bare "tok/s"
  Direction direction = Direction::higher_is_better;
  std::optional<double> base_value;  // nullopt: missing, null or not a number in that file
  std::optional<double> new_value;
  // (new - base) / |base| x 100. nullopt when a value is missing, or base is 0 and new is not
  // (an infinite change: a regression at any threshold when it is in the bad direction).
  std::optional<double> change_pct;
  Verdict verdict = Verdict::same;
  // Repeats on both sides: Welch's two-sided p, and the smallest change (% of |base|) it could
  // have called real at kSignificance. nullopt: no noise estimate (a single run on a side, or
  // a figure unknown in some repeat).
  std::optional<double> p_value;
  std::optional<double> detectable_pct;
};

struct PointComparison {
  std::string label;  // "concurrency=64", "request_rate=inf"; empty for two single runs
  std::vector<Row> rows;
  std::size_t base_repeats = 1;  // measurements behind each side's figures (--repeat)
  std::size_t new_repeats = 1;
  /// Whether a noise estimate exists: both sides repeated at least twice.
  bool noise_aware() const { return base_repeats >= 2 && new_repeats >= 2; }
};

/// One fact of what made a side (compare/setup.cpp): the server's identity, the client's
/// provenance, a peer's file format; null where a file does not record it.
struct SetupItem {
  std::string label;  // "server version", "bench commit", "results file format"
  nlohmann::json base;
  nlohmann::json next;
  bool changed() const { return base != next; }
};

/// The setup items two results record, server first, then client; items neither records are
/// left out (a file from before them shows none).
std::vector<SetupItem> setup_items(const nlohmann::json& base, const nlohmann::json& next);

struct Comparison {
  std::string base_name;  // how the two sides are named in the output (file paths)
  std::string new_name;
  std::string sweep_variable;  // "concurrency", "request_rate", "prefix_share"; empty for runs
  std::vector<PointComparison> points;    // matched points in the base's order; one for runs
  std::vector<std::string> only_in_base;  // labels of points the new sweep lacks
  std::vector<std::string> only_in_new;
  // Reasons the figures may not be comparable (configuration that differs, an interrupted
  // run, token counts from different sources), one line each: for stderr, never failing.
  std::vector<std::string> warnings;
  // What made each side, shown before the figures: what changed around the numbers.
  std::vector<SetupItem> setup;
  std::optional<double> threshold;  // --fail-on-regression as a fraction (0.05 = 5%)
  std::map<std::string, double> metric_thresholds;  // a figure's own (Row::metric: fraction)

  /// The threshold `metric` (a Row's key) is judged by: its own, else the one for all.
  std::optional<double> threshold_of(std::string_view metric) const;
  std::size_t regressions() const;
  /// True when a threshold is set and some row is worse by more than it.
  bool failed() const { return regressions() > 0; }
};

struct CompareOptions {
  std::string base_name = "base";
  std::string new_name = "new";
  std::optional<double> threshold;  // fraction; nullopt = mark better/worse, never fail
  // Per figure (results key, "error_rate"): its own threshold, before `threshold`.
  std::map<std::string, double> metric_thresholds;
};

/// --fail-on-regression as given: "5%" for every figure, "output_throughput=2%,p99_ttft_ms=10%"
/// per figure, or both ("5%,p99_itl_ms=20%": 20% for ITL p99, 5% for the rest).
struct Thresholds {
  std::optional<double> all;
  std::map<std::string, double> by_metric;  // bench's key (a peer's name is read as bench's)
};

/// Compares two results objects (single runs, or sweeps of the same variable). Errors: either
/// is not a results object, a sweep against a single run, sweeps of different variables.
std::variant<Comparison, CompareError> compare(const nlohmann::json& base,
                                               const nlohmann::json& next,
                                               const CompareOptions& options = {});

/// --fail-on-regression's value as a fraction. "5%" is five percent (0.05); a bare number is
/// a fraction ("0.05" is also five percent) and must be at most 1, so that "5" (meant as 5%,
/// read as 500%) is refused rather than silently letting everything pass. "0" fails on any
/// worsening.
std::variant<double, CompareError> parse_threshold(std::string_view flag, std::string_view text);

/// The figures compare judges, by key ("output_throughput", ..., "error_rate"): the names a
/// per-figure threshold may use (or a peer's alias of one, results::aliased_key).
const std::vector<std::string>& compared_metrics();

/// --fail-on-regression's value: comma-separated entries, each a threshold (parse_threshold)
/// for every figure or METRIC=THRESHOLD for one of compared_metrics(). Errors are one line
/// naming the flag: an entry that is no threshold, a metric compare does not judge, a metric
/// or the default given twice.
std::variant<Thresholds, CompareError> parse_thresholds(std::string_view flag,
                                                        std::string_view text);

/// The comparison for people: a header naming the files, one aligned table per point (metric,
/// unit, base, new, change, verdict), the points found on one side only, and a last line
/// counting regressions when a threshold is set. Warnings are not included (stderr's).
std::string render_text(const Comparison& comparison);

/// The comparison for scripts: {"schema_version": 1, "kind": "comparison", "base", "new",
/// "threshold" (the one for every figure), "thresholds" ({metric: a figure's own}),
/// "sweep_variable", "points": [{"point", "rows": [{"metric", "label", "unit",
/// "direction", "base", "new", "change_pct", "verdict"}]}], "only_in_base", "only_in_new",
/// "warnings", "setup" ([{"item", "base", "new", "changed"}]), "regressions", "failed"}; a value
/// that is not known is null. Each point also has "base_repeats", "new_repeats" and "noise_test"
/// ("welch", or null without repeats on both sides), each row "p_value" and "detectable_change_pct"
/// (null without them).
nlohmann::json to_json(const Comparison& comparison);

std::string_view verdict_name(Verdict verdict);        // "same", "better", "worse", ...
std::string_view direction_name(Direction direction);  // "higher_is_better", ...

}  // namespace bench::compare
