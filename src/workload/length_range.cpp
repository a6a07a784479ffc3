#include "bench/workload/length_range.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace bench::workload {

std::string_view range_rule_name(RangeRule rule) {
  return rule == RangeRule::below ? "below" : "around";
}

LengthRange length_range(std::int64_t len, double range_ratio, RangeRule rule) {
  if (!(range_ratio >= 0.0 && range_ratio <= 1.0)) {
    throw std::invalid_argument("--range-ratio must be in [0, 1], got " +
                                std::to_string(range_ratio));
  }
  if (rule == RangeRule::below) {
    // SGLang: np.random.randint(max(int(len * r), 1), len + 1), an inclusive [low, len].
    const auto low = static_cast<std::int64_t>(static_cast<double>(len) * range_ratio);
    return {std::max<std::int64_t>(low, 1), std::max<std::int64_t>(len, 1)};
  }
  // vLLM: input_low = floor(len * (1 - r)), input_high = ceil(len * (1 + r)), output_low
  // raised to 1. The same double expressions give the same bounds as its Python.
  const auto scaled = static_cast<double>(len);
  const auto low = static_cast<std::int64_t>(std::floor(scaled * (1 - range_ratio)));
  const auto high = static_cast<std::int64_t>(std::ceil(scaled * (1 + range_ratio)));
  return {std::max<std::int64_t>(low, 1), std::max<std::int64_t>(high, 1)};
}

}  // namespace bench::workload
