// compare and the workload fingerprint: two results that measured different workloads, or one
// made before results recorded their workload, get a warning; never a failure.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::compare::Comparison;
using bench::testing::compare_fixture;
using nlohmann::json;

std::vector<std::string> warnings(const json& base, const json& next) {
  auto result = bench::compare::compare(base, next, {"base.json", "new.json", 0.0, {}});
  EXPECT_TRUE(std::holds_alternative<Comparison>(result));
  return std::holds_alternative<Comparison>(result) ? std::get<Comparison>(result).warnings
                                                    : std::vector<std::string>{};
}

json with_fingerprint(json results, const std::string& fingerprint) {
  results["workload"] = {{"fingerprint", fingerprint}, {"generator_version", 2}, {"seed", 42}};
  return results;
}

TEST(CompareWorkload, TheSameFingerprintGivesNoWarning) {
  const json base = with_fingerprint(compare_fixture("run_c4.json"), "00000000000000aa");
  const json rerun = with_fingerprint(compare_fixture("run_c4_rerun.json"), "00000000000000aa");
  EXPECT_TRUE(warnings(base, rerun).empty());
}

TEST(CompareWorkload, DifferentFingerprintsAreWarnedOf) {
  const json base = with_fingerprint(compare_fixture("run_c4.json"), "00000000000000aa");
  const json next = with_fingerprint(compare_fixture("run_c4_rerun.json"), "00000000000000bb");
  EXPECT_EQ(warnings(base, next),
            std::vector<std::string>{"base.json and new.json measured different workloads "
                                     "(fingerprint 00000000000000aa vs 00000000000000bb): the "
                                     "comparison may be meaningless"});
}

TEST(CompareWorkload, AResultsFileFromAnOlderBenchCannotBeChecked) {
  const json old = compare_fixture("run_c4.json");  // written before results had a fingerprint
  ASSERT_FALSE(old.contains("workload"));
  const json next = with_fingerprint(compare_fixture("run_c4_rerun.json"), "00000000000000aa");
  const std::vector<std::string> expected = {
      "base.json was made by an older bench: its workload cannot be checked against new.json's"};
  EXPECT_EQ(warnings(old, next), expected);
  EXPECT_EQ(warnings(next, old),
            std::vector<std::string>{"new.json was made by an older bench: its workload cannot "
                                     "be checked against base.json's"});
}

TEST(CompareWorkload, SweepPointsAreCheckedOneByOne) {
  json base = compare_fixture("sweep_c1_2_4.json");
  json next = base;
  for (json& point : base["points"]) point = with_fingerprint(point, "00000000000000aa");
  for (json& point : next["points"]) point = with_fingerprint(point, "00000000000000aa");
  EXPECT_TRUE(warnings(base, next).empty());
  next["points"][1] = with_fingerprint(next["points"][1], "00000000000000cc");
  EXPECT_EQ(warnings(base, next).size(), 1u);
}

}  // namespace
