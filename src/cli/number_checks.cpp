#include "bench/cli/number_checks.hpp"

#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "bench/util/text.hpp"

namespace bench::cli {

namespace {

// `accepts` says whether a number is in; `wanted` describes the numbers that are ("> 0").
template <typename Accepts>
CLI::Validator number_check(Accepts accepts, std::string wanted, std::string help) {
  return CLI::Validator(
      [accepts, wanted](std::string& input) -> std::string {
        const std::optional<double> value = util::parse_finite_double(input);
        if (value && accepts(*value)) return {};
        return fmt::format("'{}' is not a number {}", input, wanted);
      },
      std::move(help));
}

}  // namespace

CLI::Validator positive_number() {
  return number_check([](double value) { return value > 0; }, "> 0", "POSITIVE");
}

CLI::Validator non_negative_number() {
  return number_check([](double value) { return value >= 0; }, ">= 0", "NONNEGATIVE");
}

CLI::Validator number_range(double min, double max) {
  return number_check([min, max](double value) { return value >= min && value <= max; },
                      fmt::format("from {:g} to {:g}", min, max),
                      fmt::format("[{:g} - {:g}]", min, max));
}

}  // namespace bench::cli
