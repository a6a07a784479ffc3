#include "bench/compare/unit_check.hpp"

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/lengths.hpp"

namespace bench::compare {

namespace {

using nlohmann::json;

// The unit a run, or a sweep's first point, records; empty when it records none.
std::string unit_of(const json& results) {
  const std::string key(results::key::input_len_unit);
  const json* run = &results;
  if (const auto points = results.find(results::key::points);
      !results.contains(key) && points != results.end() && points->is_array() && !points->empty()) {
    run = &points->front();
  }
  const auto unit = run->find(key);
  return unit != run->end() && unit->is_string() ? unit->get<std::string>() : "";
}

}  // namespace

std::optional<std::string> unit_refusal(const json& base, const std::string& base_name,
                                        const json& next, const std::string& new_name) {
  const std::string before = unit_of(base);
  const std::string after = unit_of(next);
  if (before.empty() || after.empty() || before == after) return std::nullopt;
  return fmt::format(
      "cannot compare {} (lengths in {}) with {} (lengths in {}): the same --input-len asks for "
      "other prompts; rerun one in the other's unit (--tokenizer words, or --tokenizer to count "
      "tokens)",
      base_name, before, new_name, after);
}

}  // namespace bench::compare
