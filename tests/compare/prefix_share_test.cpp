// compare on prefix-share sweeps (bench --prefix-share 0,0.5,...): points matched by the share
// asked, a sweep of shares never matched with a sweep of load (that would judge one point's
// figures against another's), a difference of share between two runs warned of, and the cached
// share read the right way round where a shared prefix was asked for.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/compare/compare.hpp"
#include "compare_helpers.hpp"
#include "results_fixtures.hpp"

namespace prefix_share_compare_test {

using bench::compare::Comparison;
using bench::compare::Direction;
using bench::compare::Row;
using bench::compare::Verdict;
using bench::testing::compare_fixture;
using bench::testing::compared;
using bench::testing::refusal;
using nlohmann::json;

// A real three-point sweep made a prefix-share sweep: one load (4 in flight) at every point,
// each point's share asked and the share the cache served.
json share_sweep(const std::string& fixture, const std::vector<double>& shares,
                 const std::vector<double>& served) {
  json sweep = compare_fixture(fixture);
  sweep["sweep"] = {{"variable", "prefix_share"}, {"values", shares}};
  for (std::size_t i = 0; i < shares.size(); ++i) {
    json& point = sweep["points"][i];
    point["max_concurrency"] = 4;
    point["prefix_share"] = shares[i];
    point["cached_input_share"] = served[i];
  }
  return sweep;
}

std::vector<std::string> labels(const Comparison& comparison) {
  std::vector<std::string> out;
  for (const auto& point : comparison.points) out.push_back(point.label);
  return out;
}

const Row& row_of(const bench::compare::PointComparison& point, const std::string& metric) {
  for (const Row& row : point.rows) {
    if (row.metric == metric) return row;
  }
  throw std::runtime_error("no row " + metric);
}

TEST(ComparePrefixShare, TwoShareSweepsMatchPointByPointByTheShareAsked) {
  const json base = share_sweep("sweep_c1_2_4.json", {0, 0.5, 0.9}, {0, 0.49, 0.88});
  const json next = share_sweep("sweep_c2_4_8_slow.json", {0.5, 0.9, 0.95}, {0.5, 0.9, 0.94});
  const Comparison comparison = compared(base, next);
  EXPECT_EQ(comparison.sweep_variable, "prefix_share");
  EXPECT_EQ(labels(comparison), (std::vector<std::string>{"prefix_share=0.5", "prefix_share=0.9"}));
  EXPECT_EQ(comparison.only_in_base, std::vector<std::string>{"prefix_share=0"});
  EXPECT_EQ(comparison.only_in_new, std::vector<std::string>{"prefix_share=0.95"});
  // prefix_share=0.5 is the base's second point and the new sweep's first.
  const Row& output = row_of(comparison.points[0], "output_throughput");
  EXPECT_DOUBLE_EQ(*output.base_value, base["points"][1]["output_throughput"].get<double>());
  EXPECT_DOUBLE_EQ(*output.new_value, next["points"][0]["output_throughput"].get<double>());
  const Row& cached = row_of(comparison.points[1], "cached_input_share");
  EXPECT_DOUBLE_EQ(*cached.base_value, 0.88);
  EXPECT_DOUBLE_EQ(*cached.new_value, 0.9);
  // The share is what matched the points, so it is not a difference to warn of.
  for (const std::string& warning : comparison.warnings) {
    EXPECT_EQ(warning.find("prefix_share"), std::string::npos) << warning;
  }
}

// Points of a share sweep and of a load sweep are different experiments: compare refuses, in
// both orders, rather than judge a share's figures against a concurrency's.
TEST(ComparePrefixShare, AShareSweepAndAConcurrencySweepAreNotCompared) {
  const json shares = share_sweep("sweep_c1_2_4.json", {0, 0.5, 0.9}, {0, 0.5, 0.9});
  const json load = compare_fixture("sweep_c2_4_8_slow.json");
  EXPECT_EQ(refusal(shares, load),
            "cannot match the points of base.json (a prefix_share sweep) with those of new.json "
            "(a concurrency sweep)");
  EXPECT_EQ(refusal(load, shares),
            "cannot match the points of base.json (a concurrency sweep) with those of new.json "
            "(a prefix_share sweep)");
}

TEST(ComparePrefixShare, AShareSweepAndASingleRunAreNotCompared) {
  const json shares = share_sweep("sweep_c1_2_4.json", {0, 0.5, 0.9}, {0, 0.5, 0.9});
  const std::string message = refusal(shares, compare_fixture("run_c4.json"));
  EXPECT_NE(message.find("base.json: prefix_share 0, 0.5, 0.9"), std::string::npos) << message;
}

TEST(ComparePrefixShare, TwoRunsOfDifferentSharesAreWarnedOf) {
  json base = compare_fixture("run_c4.json");
  json next = base;
  base["prefix_share"] = 0.5;
  next["prefix_share"] = 0.9;
  const Comparison comparison = compared(base, next);
  bool warned = false;
  for (const std::string& warning : comparison.warnings) {
    warned = warned || warning.find("differ in prefix_share (0.5 vs 0.9)") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

// Asked for a shared prefix, the cached share is the cache's hit rate: less of it is worse.
// Never a regression all the same: it is the cache's, not the server's speed.
TEST(ComparePrefixShare, ACacheThatServedLessOfTheAskedShareIsWorseNotBetter) {
  const json base = share_sweep("sweep_c1_2_4.json", {0, 0.5, 0.9}, {0.1, 0.49, 0.88});
  const json next = share_sweep("sweep_c1_2_4.json", {0, 0.5, 0.9}, {0.0, 0.2, 0.88});
  const Comparison comparison = compared(base, next, 0.05);
  ASSERT_EQ(comparison.points.size(), 3u);
  const Row& asked = row_of(comparison.points[1], "cached_input_share");
  EXPECT_EQ(asked.direction, Direction::higher_is_better);
  EXPECT_EQ(asked.verdict, Verdict::worse);
  // At share 0 nothing was asked: a cache serving less flatters input throughput less.
  const Row& none_asked = row_of(comparison.points[0], "cached_input_share");
  EXPECT_EQ(none_asked.direction, Direction::lower_is_better);
  EXPECT_EQ(none_asked.verdict, Verdict::better);
  EXPECT_EQ(comparison.regressions(), 0u);
}

}  // namespace prefix_share_compare_test
