// compare on two sweeps (real runs of tests/data/compare): points matched by the swept
// variable's value, points found on one side only, and the shapes that cannot be compared.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "bench/compare/compare.hpp"
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
using bench::testing::refusal;
using nlohmann::json;

std::vector<std::string> labels(const Comparison& comparison) {
  std::vector<std::string> out;
  for (const auto& point : comparison.points) out.push_back(point.label);
  return out;
}

const Row& output_row(const bench::compare::PointComparison& point) {
  for (const Row& row : point.rows) {
    if (row.metric == "output_throughput") return row;
  }
  throw std::runtime_error("no output_throughput row");
}

TEST(CompareSweeps, MatchesPointsByValueAndListsTheRest) {
  const json base = compare_fixture("sweep_c1_2_4.json");       // concurrency 1, 2, 4
  const json next = compare_fixture("sweep_c2_4_8_slow.json");  // concurrency 2, 4, 8
  const Comparison comparison = compared(base, next);
  EXPECT_EQ(comparison.sweep_variable, "concurrency");
  EXPECT_EQ(labels(comparison), (std::vector<std::string>{"concurrency=2", "concurrency=4"}));
  EXPECT_EQ(comparison.only_in_base, std::vector<std::string>{"concurrency=1"});
  EXPECT_EQ(comparison.only_in_new, std::vector<std::string>{"concurrency=8"});
  // concurrency=2 is the base's second point and the new sweep's first.
  const Row& at_two = output_row(comparison.points[0]);
  EXPECT_DOUBLE_EQ(*at_two.base_value, base["points"][1]["output_throughput"].get<double>());
  EXPECT_DOUBLE_EQ(*at_two.new_value, next["points"][0]["output_throughput"].get<double>());
  const Row& at_four = output_row(comparison.points[1]);
  EXPECT_DOUBLE_EQ(*at_four.base_value, base["points"][2]["output_throughput"].get<double>());
  EXPECT_DOUBLE_EQ(*at_four.new_value, next["points"][1]["output_throughput"].get<double>());
}

// A search's probes are a sweep in load order: two searches compare probe by probe.
TEST(CompareSweeps, TwoSearchesCompareTheirProbesMatchedByLoad) {
  json base = compare_fixture("sweep_c1_2_4.json");
  json next = compare_fixture("sweep_c2_4_8_slow.json");
  base["kind"] = "search";
  next["kind"] = "search";
  const Comparison comparison = compared(base, next, 0.05);
  EXPECT_EQ(labels(comparison), (std::vector<std::string>{"concurrency=2", "concurrency=4"}));
  for (const auto& point : comparison.points) {
    EXPECT_EQ(output_row(point).verdict, Verdict::regression) << point.label;
  }
}

TEST(CompareSweeps, RegressionsAreJudgedPerPoint) {
  const json base = compare_fixture("sweep_c1_2_4.json");
  const json slow = compare_fixture("sweep_c2_4_8_slow.json");  // twice the time per token
  const Comparison comparison = compared(base, slow, 0.05);
  for (const auto& point : comparison.points) {
    EXPECT_EQ(output_row(point).verdict, Verdict::regression) << point.label;
  }
  EXPECT_TRUE(comparison.failed());
}

TEST(CompareSweeps, IdenticalSweepsChangeNothing) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  const Comparison comparison = compared(sweep, sweep, 0.0);
  EXPECT_EQ(comparison.points.size(), 3u);
  EXPECT_TRUE(comparison.only_in_base.empty());
  EXPECT_TRUE(comparison.only_in_new.empty());
  EXPECT_TRUE(comparison.warnings.empty());
  EXPECT_FALSE(comparison.failed());
}

TEST(CompareSweeps, MatchesRatesIncludingInf) {
  json base = compare_fixture("sweep_c1_2_4.json");
  base["sweep"] = {{"variable", "request_rate"}, {"values", {1, 4.5, "inf"}}};
  json next = base;
  next["sweep"]["values"] = {"inf", 4.5, 16};
  next["points"] = {base["points"][2], base["points"][1], base["points"][0]};
  const Comparison comparison = compared(base, next);
  EXPECT_EQ(labels(comparison), (std::vector<std::string>{"request_rate=4.5", "request_rate=inf"}));
  EXPECT_EQ(comparison.only_in_base, std::vector<std::string>{"request_rate=1"});
  EXPECT_EQ(comparison.only_in_new, std::vector<std::string>{"request_rate=16"});
  EXPECT_EQ(output_row(comparison.points[1]).verdict, Verdict::same);  // the same point
}

TEST(CompareSweeps, MatchesOnConfiguredConcurrencyWhenTheSweepHasNoValues) {
  json base = compare_fixture("sweep_c1_2_4.json");
  json next = compare_fixture("sweep_c2_4_8_slow.json");
  base["sweep"].erase("values");
  next["sweep"].erase("values");
  EXPECT_EQ(labels(compared(base, next)),
            (std::vector<std::string>{"concurrency=2", "concurrency=4"}));
}

TEST(CompareSweeps, RepeatedValuesPairInOrder) {
  json base = compare_fixture("sweep_c1_2_4.json");
  base["sweep"]["values"] = {4, 4, 4};
  json next = base;
  next["points"].erase(2);
  next["sweep"]["values"] = {4, 4};
  const Comparison comparison = compared(base, next);
  EXPECT_EQ(comparison.points.size(), 2u);
  EXPECT_EQ(comparison.only_in_base, std::vector<std::string>{"concurrency=4"});
  EXPECT_EQ(output_row(comparison.points[1]).verdict, Verdict::same);
}

TEST(CompareSweeps, WarnsWhenNoPointMatches) {
  json next = compare_fixture("sweep_c1_2_4.json");
  next["sweep"]["values"] = {16, 32, 64};
  const Comparison comparison = compared(compare_fixture("sweep_c1_2_4.json"), next);
  EXPECT_TRUE(comparison.points.empty());
  EXPECT_EQ(comparison.only_in_base.size(), 3u);
  EXPECT_EQ(comparison.only_in_new.size(), 3u);
  EXPECT_EQ(comparison.warnings,
            std::vector<std::string>{"no point of base (concurrency=1, 2, 4) matches a point of "
                                     "new (concurrency=16, 32, 64): nothing to compare"});
}

TEST(CompareSweeps, WarnsOnConfigurationOnceAcrossPoints) {
  const json base = compare_fixture("sweep_c1_2_4.json");
  json next = base;
  for (json& point : next["points"]) point["config"]["output_len"] = 16;
  EXPECT_EQ(compared(base, next).warnings,
            std::vector<std::string>{"base and new differ in output_len (8 vs 16): the "
                                     "comparison may be meaningless"});
}

TEST(CompareSweeps, RefusesASweepAgainstASingleRun) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  const json run = compare_fixture("run_c4.json");
  EXPECT_EQ(refusal(sweep, run),
            "cannot compare a sweep (base.json: concurrency 1, 2, 4) with a single run "
            "(new.json): give two single runs or two sweeps");
  EXPECT_EQ(refusal(run, sweep),
            "cannot compare a sweep (new.json: concurrency 1, 2, 4) with a single run "
            "(base.json): give two single runs or two sweeps");
}

TEST(CompareSweeps, RefusesSweepsOfDifferentVariables) {
  const json base = compare_fixture("sweep_c1_2_4.json");
  json next = base;
  next["sweep"]["variable"] = "request_rate";
  EXPECT_EQ(refusal(base, next),
            "cannot match the points of base.json (a concurrency sweep) with those of new.json "
            "(a request_rate sweep)");
}

TEST(CompareSweeps, RefusesASweepWithoutPoints) {
  const json empty = {{"kind", "sweep"}, {"points", json::array()}};
  EXPECT_EQ(refusal(empty, compare_fixture("sweep_c1_2_4.json")),
            "base.json: a sweep without points");
}

}  // namespace
