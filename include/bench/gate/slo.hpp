#pragma once
// SLOs of `bench search` (--slo METRIC<=VALUE, --slo METRIC>=VALUE), read as the gates they are:
// "p99_ttft_ms<=500" holds when --fail-over p99_ttft_ms=500 would pass, "output_throughput>=800"
// as --fail-under output_throughput=800, and "error_rate<=0.01" (or 1%) as --max-error-rate, so
// a search judges a probe exactly as a gate judges a run (an unknown figure fails).
#include <string_view>
#include <variant>
#include <vector>

#include "bench/gate/gate.hpp"

namespace bench::gate {

/// Parses one --slo value. Errors are one line naming --slo and the value: no <= or >=, a
/// metric that is not a results key (with the nearest name), a VALUE that is not a number,
/// error_rate with >=.
std::variant<Gate, GateError> parse_slo(
    std::string_view spec, const std::vector<std::string>& known = results::run_metric_names());

/// The SLO as written ("p99_ttft_ms<=500"), from the gate parse_slo made of it.
std::string slo_text(const Gate& slo);

}  // namespace bench::gate
