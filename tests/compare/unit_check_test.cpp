// compare refuses a run whose lengths are words against one whose lengths are tokens: the same
// --input-len asked for other prompts. Results without the unit (older files) are compared.
#include <gtest/gtest.h>

#include "compare_helpers.hpp"
#include "results_fixtures.hpp"

namespace bench::testing {
namespace {

using nlohmann::json;

json with_unit(json results, const std::string& unit) {
  if (results.contains("points")) {
    for (json& point : results["points"]) point["input_len_unit"] = unit;
  } else {
    results["input_len_unit"] = unit;
  }
  return results;
}

TEST(CompareUnits, refuses_words_against_tokens_in_one_line) {
  const json run = compare_fixture("run_c4.json");
  EXPECT_EQ(refusal(with_unit(run, "words"), with_unit(run, "tokens")),
            "cannot compare base.json (lengths in words) with new.json (lengths in tokens): the "
            "same --input-len asks for other prompts; rerun one in the other's unit (--tokenizer "
            "words, or --tokenizer to count tokens)");
}

TEST(CompareUnits, refuses_sweeps_by_their_points_unit) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  EXPECT_NE(refusal(with_unit(sweep, "tokens"), with_unit(sweep, "words")).find("lengths in"),
            std::string::npos);
}

TEST(CompareUnits, compares_the_same_unit_and_files_without_one) {
  const json run = compare_fixture("run_c4.json");
  EXPECT_FALSE(compared(with_unit(run, "tokens"), with_unit(run, "tokens")).points.empty());
  EXPECT_FALSE(compared(run, with_unit(run, "tokens")).points.empty());
}

}  // namespace
}  // namespace bench::testing
