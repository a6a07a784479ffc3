#pragma once
// CI gates (issue 3, item 5): thresholds on a results object that decide the exit code.
//   --fail-under METRIC=VALUE   fails when METRIC < VALUE     (e.g. output_throughput=800)
//   --fail-over METRIC=VALUE    fails when METRIC > VALUE     (e.g. p99_ttft_ms=500)
//   --max-error-rate F          fails when failed / sent > F  (F a fraction 0..1, or "5%")
// A value equal to its limit passes. Gates are checked against a single run, or against every
// point of a sweep. A metric that is missing, null or not a number fails its gate: a gate that
// cannot be checked must never pass silently.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/gate/metric_names.hpp"

namespace bench::gate {

/// Proposed exit code when a gate fails (README "Exit codes"; 0, 1, 2, 3 and 130 are taken).
/// It takes precedence over 1 (requests failed), since the gates are the pass criteria the
/// user stated; 2, 3 and 130 take precedence over it.
inline constexpr int kExitGateFailed = 4;

enum class GateKind { fail_under, fail_over, max_error_rate };

/// --gate-on: what a gate judges on a point measured several times (--repeat N): the mean of
/// its repeats (the point's combined keys), or every repeat, so the worst one decides.
enum class GateOn { mean, worst };
std::string_view gate_on_name(GateOn on);  // "mean", "worst"

/// The flag that makes a gate of this kind: "--fail-under", "--fail-over", "--max-error-rate".
std::string_view flag_of(GateKind kind);

struct Gate {
  GateKind kind = GateKind::fail_under;
  std::string metric;  // a numeric top-level key of the results; empty for max_error_rate
  double limit = 0;    // VALUE; for max_error_rate a fraction of sent requests, 0..1
  std::string spec;    // the flag's value as given, for messages
};

/// Why a flag value was refused: one line naming the flag and the value.
struct GateError {
  std::string message;
};

/// Parses one flag value: "METRIC=VALUE" for fail_under and fail_over (METRIC must be one of
/// `known`), "F" or "P%" for max_error_rate.
std::variant<Gate, GateError> parse_gate(
    GateKind kind, std::string_view spec,
    const std::vector<std::string>& known = results::run_metric_names());

struct Violation {
  Gate gate;
  std::string point;            // "concurrency=64" for a point of a sweep; empty for a single run
  std::optional<double> value;  // the figure that failed; nullopt when it could not be read
  std::string message;          // "gate failed: output_throughput = 612.3 < 800 (--fail-under)"
};

struct GateOutcome {
  std::vector<Gate> gates;            // the gates checked
  std::size_t points = 0;             // runs they were checked on (1, or a sweep's points)
  std::vector<Violation> violations;  // in gate order, then point order
  bool failed() const { return !violations.empty(); }
};

/// Checks every gate on `results`: a single-run object, or a sweep ("kind": "sweep" or a
/// "points" array), every point of which must pass. A repeated point (results/repeats.hpp) is
/// judged on its mean, or with GateOn::worst on each of its repeats.
GateOutcome evaluate(std::span<const Gate> gates, const nlohmann::json& results,
                     GateOn on = GateOn::mean);

/// The violations, one line each, each ending in a newline (for stderr); "" when none.
std::string render_violations(const GateOutcome& outcome);

/// {"passed", "gates": [{flag, metric, limit}], "violations": [{flag, metric, limit, point,
/// value, message}]}: for a results file that records what it was held to.
nlohmann::json to_json(const GateOutcome& outcome);

}  // namespace bench::gate
