#pragma once
// The answer check said to people (results/answer_check.hpp holds its block): one summary line,
// the text report's "Answer check:" field and the stderr note, and one line per answer that
// was not plausible or not judged, naming what looked wrong with an excerpt of what it said.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::report {

/// The summary first ("3 of 3 known-answer prompts answered plausibly (0.21 s before the run,
/// in no figure)"), then the lines of each answer not plausible, indented. Empty for a null or
/// missing block (the check was not made).
std::vector<std::string> answer_check_lines(const nlohmann::json& block);

/// The same as text lines after a sweep's table or a repeated run's figures: "Answer check:
/// ..." (with "WARNING: " when implausible), then the answers' lines; empty for no block.
std::string render_answer_check(const nlohmann::json& block);

}  // namespace bench::report
