#pragma once
// Number checks for CLI11 options whose refusals print their bounds as a person writes them.
// CLI11's own PositiveNumber / NonNegativeNumber / Range print bounds with std::to_string, so
// `--burstiness 0` would be told "not in range 0.000000 to 1797693134862315...(309 digits)".
#include <CLI/CLI.hpp>

namespace bench::cli {

/// > 0 (and finite).
CLI::Validator positive_number();

/// >= 0 (and finite).
CLI::Validator non_negative_number();

/// In [min, max].
CLI::Validator number_range(double min, double max);

}  // namespace bench::cli
