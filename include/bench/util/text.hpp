#pragma once
// Small text helpers shared by the modules that read user-given values (flags, gates,
// thresholds), so they all accept and refuse the same spellings.
#include <optional>
#include <string_view>

namespace bench::util {

/// `text` without leading and trailing spaces.
std::string_view trim_spaces(std::string_view text);

/// The whole of `text` read as a finite double; nullopt for an empty string, trailing
/// characters, "inf" or "nan" (a limit of infinity is no limit).
std::optional<double> parse_finite_double(std::string_view text);

}  // namespace bench::util
