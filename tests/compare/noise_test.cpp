// compare on repeated runs (--repeat): Welch's t-test decides whether a change is real, each
// row says the smallest change its data could have detected, and single runs say they have no
// noise estimate. Repeats are made from a real run (tests/data/compare) with seeded noise of a
// known size: every figure of a repeat is the run's times (1 + u), u uniform in [-3%, +3%].
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "bench/compare/compare.hpp"
#include "bench/results/repeats.hpp"
#include "compare_helpers.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::compare::CompareError;
using bench::compare::CompareOptions;
using bench::compare::Comparison;
using bench::compare::Row;
using bench::compare::Verdict;
using bench::testing::compare_fixture;
using bench::testing::compared;
using bench::testing::row;
using nlohmann::json;

constexpr const char* kScaled[] = {"output_throughput", "input_throughput", "total_throughput",
                                   "request_throughput"};
constexpr const char* kLatencies[] = {
    "median_ttft_ms", "p99_ttft_ms", "median_itl_ms",         "p99_itl_ms",
    "median_tpot_ms", "p99_tpot_ms", "median_e2e_latency_ms", "p99_e2e_latency_ms"};

// `count` repeats of run_c4.json on a server `slower` times slower (0.10: throughput / 1.1,
// latency x 1.1), each figure with its own seeded noise.
json repeated(std::uint64_t seed, int count, double slower) {
  std::mt19937_64 random(seed);
  const auto noise = [&random] {
    return 1.0 + (static_cast<double>(random() >> 11) * 0x1.0p-53 * 2 - 1) * 0.03;
  };
  const json run = compare_fixture("run_c4.json");
  std::vector<json> runs;
  for (int i = 0; i < count; ++i) {
    json repeat = run;
    for (const char* key : kScaled) repeat[key] = run[key].get<double>() / (1 + slower) * noise();
    for (const char* key : kLatencies)
      repeat[key] = run[key].get<double>() * (1 + slower) * noise();
    runs.push_back(std::move(repeat));
  }
  return count == 1 ? runs.front() : bench::results::combine_repeats(runs);
}

TEST(NoiseAwareCompare, TwoRepeatedRunsOfTheSameServerShowNoChange) {
  const Comparison comparison = compared(repeated(1, 5, 0), repeated(2, 5, 0), 0.01);
  EXPECT_TRUE(comparison.points[0].noise_aware());
  EXPECT_EQ(comparison.regressions(), 0u) << bench::compare::render_text(comparison);
  for (const Row& row : comparison.points[0].rows) {
    if (!row.p_value) continue;
    EXPECT_NE(row.verdict, Verdict::worse) << row.metric;
    EXPECT_NE(row.verdict, Verdict::better) << row.metric;
    EXPECT_GE(*row.p_value, 0.05) << row.metric;
  }
}

TEST(NoiseAwareCompare, AServerTenPercentSlowerIsARegression) {
  const Comparison comparison = compared(repeated(1, 5, 0), repeated(2, 5, 0.10), 0.05);
  const Row& output = row(comparison, "output_throughput");
  EXPECT_EQ(output.verdict, Verdict::regression);
  EXPECT_LT(*output.p_value, 0.05);
  EXPECT_LT(*output.detectable_pct, 5.0);
  EXPECT_EQ(row(comparison, "p99_tpot_ms").verdict, Verdict::regression);
  EXPECT_TRUE(comparison.failed());
}

TEST(NoiseAwareCompare, AServerOnePercentSlowerIsBelowTheDetectableChange) {
  const Comparison comparison = compared(repeated(1, 5, 0), repeated(2, 5, 0.01), 0.005);
  const Row& output = row(comparison, "output_throughput");
  EXPECT_EQ(output.verdict, Verdict::below_detectable);
  EXPECT_GT(*output.detectable_pct, 1.0);
  EXPECT_GT(*output.p_value, 0.05);
  const std::string text = bench::compare::render_text(comparison);
  EXPECT_NE(text.find("below detectable change"), std::string::npos) << text;
  EXPECT_NE(text.find("detectable"), std::string::npos);
  EXPECT_NE(text.find("noise: 5 repeats in base, 5 in new; a change counts only when Welch's "
                      "t-test says it is real (two-sided p < 0.05)"),
            std::string::npos)
      << text;
}

TEST(NoiseAwareCompare, SingleRunsKeepTheSizeRuleAndSayTheyHaveNoNoiseEstimate) {
  const Comparison comparison = compared(repeated(1, 1, 0), repeated(2, 1, 0.20), 0.05);
  const Row& output = row(comparison, "output_throughput");
  EXPECT_EQ(output.verdict, Verdict::regression);
  EXPECT_FALSE(output.p_value.has_value());
  EXPECT_FALSE(output.detectable_pct.has_value());
  const std::string text = bench::compare::render_text(comparison);
  EXPECT_NE(text.find("noise: no estimate (single runs), so changes are judged by size alone "
                      "and the detectable change is unknown"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("detectable change  "), std::string::npos);  // no column without repeats
}

TEST(NoiseAwareCompare, RepeatsOnOneSideOnlyGiveNoNoiseEstimate) {
  const Comparison comparison = compared(repeated(1, 1, 0), repeated(2, 4, 0.10), 0.05);
  EXPECT_FALSE(comparison.points[0].noise_aware());
  EXPECT_EQ(row(comparison, "output_throughput").verdict, Verdict::regression);
  EXPECT_NE(bench::compare::render_text(comparison).find("no estimate (base is a single run)"),
            std::string::npos);
}

TEST(NoiseAwareCompare, TheJsonCarriesTheTestAndEachRowsPAndDetectableChange) {
  const json out = bench::compare::to_json(compared(repeated(1, 3, 0), repeated(2, 3, 0.10), 0.05));
  const json& point = out["points"][0];
  EXPECT_EQ(point["noise_test"], "welch");
  EXPECT_EQ(point["base_repeats"], 3);
  EXPECT_EQ(point["new_repeats"], 3);
  EXPECT_TRUE(point["rows"][0]["p_value"].is_number());
  EXPECT_TRUE(point["rows"][0]["detectable_change_pct"].is_number());
  const json single = bench::compare::to_json(compared(repeated(1, 1, 0), repeated(2, 1, 0), {}));
  EXPECT_TRUE(single["points"][0]["noise_test"].is_null());
  EXPECT_TRUE(single["points"][0]["rows"][0]["p_value"].is_null());
}

}  // namespace
