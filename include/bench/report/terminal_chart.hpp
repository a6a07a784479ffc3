#pragma once
// A compact text chart of a sweep for the terminal, printed under the sweep table: one bar per
// point, its length the total tok/s, the output part drawn solid and the input part light, so
// how little of a "total" is generated output is seen at a glance. Figures beside each bar
// name their kind (output, total), failures are shown on the point's line.
#include <string>

#include <nlohmann/json.hpp>

namespace bench::report {

enum class TextCharset {
  kUnicode,  // block characters (U+2588 full block, U+2591 light shade) and box drawing
  kAscii,    // '#' and '.', for terminals without UTF-8
};

/// The chart for a sweep results object ({"kind": "sweep", "points": [...]}), at most `width`
/// columns wide (at least 60 are used), ending with a newline. Empty when there are no points.
/// Throws std::invalid_argument when `sweep` is not an object or its points not an array.
std::string render_sweep_chart(const nlohmann::json& sweep, int width,
                               TextCharset charset = TextCharset::kUnicode);

}  // namespace bench::report
