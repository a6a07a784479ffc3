#pragma once
// Whether two results counted lengths in the same unit (results/lengths.hpp input_len_unit): a
// run of 128-word prompts is not the run of 128-token prompts, so compare refuses the pair
// instead of warning. Results that do not record the unit are not refused for it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace bench::compare {

/// The refusal's one line when `base` and `next` counted in different units, else nothing.
std::optional<std::string> unit_refusal(const nlohmann::json& base, const std::string& base_name,
                                        const nlohmann::json& next, const std::string& new_name);

}  // namespace bench::compare
