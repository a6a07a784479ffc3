#pragma once
// Small text helpers shared by the modules that read user-given values (flags, gates,
// thresholds), so they all accept and refuse the same spellings.
#include <optional>
#include <string>
#include <string_view>

namespace bench::util {

/// `c` in lower case when it is an ASCII capital, else as it is: HTTP header names, media types
/// and the error words bench looks for compare so, whatever the locale.
constexpr char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// `text` with its ASCII capitals lowered.
std::string ascii_lowered(std::string_view text);

/// Whether `text` begins with `lower_prefix` (written in lower case), ASCII case ignored.
bool starts_with_ignoring_case(std::string_view text, std::string_view lower_prefix);

/// `text` without the leading and trailing characters that are in `characters` (by default the
/// space alone: what a flag's value or a threshold may be padded with).
std::string_view trim(std::string_view text, std::string_view characters = " ");

/// The whole of `text` read as a finite double; nullopt for an empty string, trailing
/// characters, "inf" or "nan" (a limit of infinity is no limit).
std::optional<double> parse_finite_double(std::string_view text);

}  // namespace bench::util
