#include "bench/gate/slo.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/gate/metric_names.hpp"
#include "bench/util/text.hpp"

namespace bench::gate {

std::variant<Gate, GateError> parse_slo(std::string_view spec,
                                        const std::vector<std::string>& known) {
  const std::size_t at_most = spec.find("<=");
  const std::size_t at_least = spec.find(">=");
  if ((at_most == std::string_view::npos) == (at_least == std::string_view::npos)) {
    return GateError{fmt::format(
        "--slo: '{}' needs one METRIC<=VALUE or METRIC>=VALUE (p99_ttft_ms<=500)", spec)};
  }
  const std::size_t split = at_most != std::string_view::npos ? at_most : at_least;
  const std::string_view metric = util::trim(spec.substr(0, split));
  const std::string_view value = util::trim(spec.substr(split + 2));
  if (metric == "error_rate") {
    if (at_least != std::string_view::npos) {
      return GateError{fmt::format("--slo: '{}': error_rate takes <= (error_rate<=0.01)", spec)};
    }
    const bool percent = value.ends_with('%');
    std::optional<double> rate =
        util::parse_finite_double(percent ? value.substr(0, value.size() - 1) : value);
    if (rate && percent) *rate /= 100;
    if (!rate || *rate < 0 || *rate > 1) {
      return GateError{fmt::format("--slo: '{}': '{}' is not a fraction from 0 to 1 (0.01, or 1%)",
                                   spec, value)};
    }
    return Gate{GateKind::max_error_rate, "", *rate, std::string(spec)};
  }
  if (std::optional<std::string> unknown = check_metric("--slo", metric, known)) {
    return GateError{std::move(*unknown)};
  }
  const std::optional<double> limit = util::parse_finite_double(value);
  if (!limit) {
    return GateError{fmt::format("--slo: '{}': VALUE '{}' is not a number", spec, value)};
  }
  const GateKind kind =
      at_most != std::string_view::npos ? GateKind::fail_over : GateKind::fail_under;
  return Gate{kind, metric_key(metric), *limit, std::string(spec)};
}

std::string slo_text(const Gate& slo) {
  switch (slo.kind) {
    case GateKind::max_error_rate: return fmt::format("error_rate<={:g}", slo.limit);
    case GateKind::fail_over: return fmt::format("{}<={:g}", slo.metric, slo.limit);
    case GateKind::fail_under: return fmt::format("{}>={:g}", slo.metric, slo.limit);
  }
  return slo.spec;
}

}  // namespace bench::gate
