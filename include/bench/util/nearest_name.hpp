#pragma once
// The known name a user most likely meant by one that is not known: for "did you mean" in every
// message that refuses a name (a gate's metric, a flag).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bench::util {

/// Optimal string alignment distance: Levenshtein plus adjacent transpositions, the two slips a
/// hand typing a name makes ("p99_ttfft_ms", "--concurency", "ouptut_throughput").
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The name of `known` nearest to `name`, or "" when none is close: at most 2 edits, or a fifth
/// of the name's length for long names, so an unrelated word gets no suggestion. Ties go to the
/// earlier name.
std::string nearest_name(std::string_view name, const std::vector<std::string>& known);

}  // namespace bench::util
