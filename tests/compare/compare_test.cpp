// compare on two single runs (real results of tests/data/compare): which rows, which way each
// metric is worse, the change in %, the threshold, a zero base, missing figures, and the
// configuration warnings that never fail a comparison.
#include "bench/compare/compare.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "compare_helpers.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::compare::CompareError;
using bench::compare::CompareOptions;
using bench::compare::Comparison;
using bench::compare::Direction;
using bench::compare::Row;
using bench::compare::Verdict;
using bench::testing::compare_fixture;
using bench::testing::compared;
using bench::testing::refusal;
using bench::testing::row;
using nlohmann::json;

bool has_row(const Comparison& comparison, const std::string& metric) {
  for (const Row& candidate : comparison.points.at(0).rows) {
    if (candidate.metric == metric) return true;
  }
  return false;
}

double change_pct(const json& base, const json& next, const std::string& key) {
  return (next[key].get<double>() - base[key].get<double>()) / base[key].get<double>() * 100;
}

TEST(Compare, RowsAreTheKeyMetricsInReportOrderWithLabelledUnits) {
  const json run = compare_fixture("run_c4.json");
  const Comparison comparison = compared(run, run);
  ASSERT_EQ(comparison.points.size(), 1u);
  EXPECT_TRUE(comparison.points[0].label.empty());
  std::vector<std::string> metrics;
  for (const Row& r : comparison.points[0].rows) metrics.push_back(r.metric);
  EXPECT_EQ(metrics,
            (std::vector<std::string>{
                "output_throughput", "input_throughput", "total_throughput", "request_throughput",
                "median_ttft_ms", "p99_ttft_ms", "median_itl_ms", "p99_itl_ms", "median_tpot_ms",
                "p99_tpot_ms", "median_e2e_latency_ms", "p99_e2e_latency_ms", "error_rate"}));
  EXPECT_EQ(row(comparison, "output_throughput").unit, "output tok/s");
  EXPECT_EQ(row(comparison, "input_throughput").unit, "input tok/s");
  EXPECT_EQ(row(comparison, "total_throughput").unit, "total tok/s");
  EXPECT_EQ(row(comparison, "request_throughput").unit, "req/s");
  EXPECT_EQ(row(comparison, "p99_ttft_ms").unit, "ms");
  EXPECT_EQ(row(comparison, "error_rate").unit, "% of sent");
}

TEST(Compare, IdenticalRunsChangeNothingAndPassAZeroThreshold) {
  const json run = compare_fixture("run_c4.json");
  const Comparison comparison = compared(run, run, 0.0);
  for (const Row& r : comparison.points[0].rows) {
    EXPECT_EQ(r.verdict, Verdict::same) << r.metric;
    ASSERT_TRUE(r.change_pct) << r.metric;
    EXPECT_EQ(*r.change_pct, 0) << r.metric;
  }
  EXPECT_FALSE(comparison.failed());
  EXPECT_TRUE(comparison.warnings.empty());
}

TEST(Compare, ThroughputIsBetterHigherAndLatencyBetterLower) {
  const json run = compare_fixture("run_c4.json");
  const Comparison comparison = compared(run, run);
  for (const Row& r : comparison.points[0].rows) {
    const bool throughput = r.metric.ends_with("throughput");
    EXPECT_EQ(r.direction, throughput ? Direction::higher_is_better : Direction::lower_is_better)
        << r.metric;
  }
}

TEST(Compare, SlowerServerIsWorseOnThroughputAndLatency) {
  const json fast = compare_fixture("run_c4.json");
  const json slow = compare_fixture("run_c4_slow.json");
  const Comparison comparison = compared(fast, slow);
  const Row& output = row(comparison, "output_throughput");
  EXPECT_DOUBLE_EQ(*output.base_value, fast["output_throughput"].get<double>());
  EXPECT_DOUBLE_EQ(*output.new_value, slow["output_throughput"].get<double>());
  EXPECT_DOUBLE_EQ(*output.change_pct, change_pct(fast, slow, "output_throughput"));
  EXPECT_EQ(output.verdict, Verdict::worse);  // no threshold: marked, never a regression
  EXPECT_EQ(row(comparison, "median_tpot_ms").verdict, Verdict::worse);
  EXPECT_GT(*row(comparison, "median_tpot_ms").change_pct, 0);
  EXPECT_FALSE(comparison.failed());

  const Comparison reversed = compared(slow, fast);
  EXPECT_EQ(row(reversed, "output_throughput").verdict, Verdict::better);
  EXPECT_EQ(row(reversed, "median_tpot_ms").verdict, Verdict::better);
}

TEST(Compare, TenPercentOutputThroughputDropIsARegressionAtFivePercent) {
  const json base = compare_fixture("run_c4.json");
  json next = base;
  next["output_throughput"] = base["output_throughput"].get<double>() * 0.9;
  const Comparison at_five = compared(base, next, 0.05);
  const Row& output = row(at_five, "output_throughput");
  EXPECT_NEAR(*output.change_pct, -10, 1e-9);
  EXPECT_EQ(output.verdict, Verdict::regression);
  EXPECT_EQ(at_five.regressions(), 1u);
  EXPECT_TRUE(at_five.failed());

  const Comparison at_twenty = compared(base, next, 0.20);
  EXPECT_EQ(row(at_twenty, "output_throughput").verdict, Verdict::worse);
  EXPECT_FALSE(at_twenty.failed());
}

TEST(Compare, ChangeExactlyAtTheThresholdPasses) {
  const json base = {{"output_throughput", 100.0}};
  EXPECT_EQ(row(compared(base, {{"output_throughput", 95.0}}, 0.05), "output_throughput").verdict,
            Verdict::worse);
  EXPECT_EQ(row(compared(base, {{"output_throughput", 94.9}}, 0.05), "output_throughput").verdict,
            Verdict::regression);
}

TEST(Compare, LatencyRiseBeyondThresholdIsARegression) {
  const json base = compare_fixture("run_c4.json");
  json next = base;
  next["p99_ttft_ms"] = base["p99_ttft_ms"].get<double>() * 1.5;
  const Comparison comparison = compared(base, next, 0.10);
  EXPECT_EQ(row(comparison, "p99_ttft_ms").verdict, Verdict::regression);
  EXPECT_NEAR(*row(comparison, "p99_ttft_ms").change_pct, 50, 1e-9);
  EXPECT_EQ(comparison.regressions(), 1u);
}

TEST(Compare, ImprovementsNeverFail) {
  const Comparison comparison =
      compared(compare_fixture("run_c4_slow.json"), compare_fixture("run_c4.json"), 0.0);
  EXPECT_EQ(row(comparison, "output_throughput").verdict, Verdict::better);
  EXPECT_EQ(row(comparison, "p99_tpot_ms").verdict, Verdict::better);
}

TEST(Compare, ErrorRateIsFailedOverSentInPercent) {
  const json clean = compare_fixture("run_c4.json");
  const json failing = compare_fixture("run_c4_failures.json");
  const Comparison comparison = compared(clean, failing);
  const Row& errors = row(comparison, "error_rate");
  EXPECT_DOUBLE_EQ(*errors.base_value, 0);
  EXPECT_DOUBLE_EQ(*errors.new_value,
                   failing["failed"].get<double>() / failing["sent"].get<double>() * 100);
  EXPECT_EQ(errors.verdict, Verdict::worse);
}

TEST(Compare, ErrorsAppearingFromZeroDoNotDivideByZeroAndRegressAtAnyThreshold) {
  const Comparison comparison =
      compared(compare_fixture("run_c4.json"), compare_fixture("run_c4_failures.json"), 1.0);
  const Row& errors = row(comparison, "error_rate");
  EXPECT_FALSE(errors.change_pct);  // infinite: no number to print
  EXPECT_EQ(errors.verdict, Verdict::regression);
}

TEST(Compare, ErrorsGoingAwayAreBetter) {
  const Comparison comparison =
      compared(compare_fixture("run_c4_failures.json"), compare_fixture("run_c4.json"), 0.0);
  const Row& errors = row(comparison, "error_rate");
  EXPECT_EQ(errors.verdict, Verdict::better);
  EXPECT_DOUBLE_EQ(*errors.change_pct, -100);
}

TEST(Compare, ZeroOnBothSidesIsNoChange) {
  const json run = {{"output_throughput", 0.0}, {"p99_itl_ms", 0.0}};
  const Comparison comparison = compared(run, run, 0.0);
  EXPECT_EQ(row(comparison, "p99_itl_ms").verdict, Verdict::same);
  EXPECT_EQ(*row(comparison, "p99_itl_ms").change_pct, 0);
}

TEST(Compare, ThroughputRisingFromZeroIsBetterWithoutAPercentage) {
  const Comparison comparison =
      compared({{"output_throughput", 0.0}}, {{"output_throughput", 50.0}}, 0.0);
  const Row& output = row(comparison, "output_throughput");
  EXPECT_EQ(output.verdict, Verdict::better);
  EXPECT_FALSE(output.change_pct);
  EXPECT_FALSE(comparison.failed());
}

TEST(Compare, MissingFigureIsNotComparableAndNeverARegression) {
  const json base = compare_fixture("run_c4.json");
  json older = base;
  older.erase("p99_itl_ms");
  json unsent = base;
  unsent["sent"] = 0;
  const Comparison comparison = compared(older, base, 0.0);
  const Row& itl = row(comparison, "p99_itl_ms");
  EXPECT_EQ(itl.verdict, Verdict::not_comparable);
  EXPECT_FALSE(itl.base_value);
  EXPECT_TRUE(itl.new_value);
  EXPECT_FALSE(itl.change_pct);
  EXPECT_FALSE(comparison.failed());
  EXPECT_EQ(row(compared(base, unsent), "error_rate").verdict, Verdict::not_comparable);
}

TEST(Compare, GoodputHasARowOnlyWhenMeasured) {
  const json base = compare_fixture("run_c4.json");
  EXPECT_FALSE(has_row(compared(base, base), "goodput"));
  json unmeasured = base;
  unmeasured["goodput"] = nullptr;  // a run without --goodput SLOs
  EXPECT_FALSE(has_row(compared(unmeasured, unmeasured), "goodput"));

  json measured = base;
  measured["goodput"] = 40.0;
  json lower = base;
  lower["goodput"] = 30.0;
  const Comparison comparison = compared(measured, lower, 0.1);
  const Row& goodput = row(comparison, "goodput");
  EXPECT_EQ(goodput.unit, "req/s");
  EXPECT_EQ(goodput.verdict, Verdict::regression);
  EXPECT_EQ(row(compared(unmeasured, measured), "goodput").verdict, Verdict::not_comparable);
}

TEST(Compare, SameConfigurationRunAgainGivesNoWarning) {
  // The two runs used different embedded-server ports; that is not a configuration change.
  const json base = compare_fixture("run_c4.json");
  const json rerun = compare_fixture("run_c4_rerun.json");
  ASSERT_NE(base["base_url"], rerun["base_url"]);
  EXPECT_TRUE(compared(base, rerun).warnings.empty());
}

TEST(Compare, WarnsWhenTheWorkloadDiffers) {
  auto result =
      bench::compare::compare(compare_fixture("run_c4.json"), compare_fixture("run_c4_out16.json"),
                              {"a.json", "b.json", std::nullopt, {}});
  ASSERT_TRUE(std::holds_alternative<Comparison>(result));
  EXPECT_EQ(std::get<Comparison>(result).warnings,
            std::vector<std::string>{"a.json and b.json differ in output_len (8 vs 16): the "
                                     "comparison may be meaningless"});
}

// --no-stream: whole answers have no TTFT or ITL; a file from before "stream" was recorded
// streamed.
TEST(Compare, WarnsWhenOneRunStreamedAndTheOtherDidNot) {
  const json base = compare_fixture("run_c4.json");
  json streamed = base;
  streamed["config"]["stream"] = true;
  EXPECT_TRUE(compared(base, streamed).warnings.empty());
  json whole = base;
  whole["config"]["stream"] = false;
  EXPECT_EQ(compared(base, whole).warnings,
            std::vector<std::string>{"base and new differ in stream (true vs false): the "
                                     "comparison may be meaningless"});
}

TEST(Compare, WarnsOnModelEndpointConcurrencyAndTokenCountSource) {
  const json base = compare_fixture("run_c4.json");
  json next = compare_fixture("run_c4_no_usage.json");
  next["model"] = "other-model";
  next["endpoint"] = "completions";
  next["max_concurrency"] = 8;
  const std::vector<std::string> warnings = compared(base, next).warnings;
  const std::vector<std::string> expected = {
      "base and new differ in model (bench-sim vs other-model): the comparison may be "
      "meaningless",
      "base and new differ in endpoint (chat vs completions): the comparison may be meaningless",
      "base and new differ in concurrency (4 vs 8): the comparison may be meaningless",
      "base and new differ in output token count source (usage vs chunks_estimate): the "
      "comparison may be meaningless"};
  EXPECT_EQ(warnings, expected);
}

TEST(Compare, UnknownInputFiguresAreNotComparableNeverAHundredPercentDrop) {
  const json base = compare_fixture("run_c4.json");
  const json next = compare_fixture("run_c4_no_usage.json");  // input written as 0, source unknown
  const auto comparison = compared(base, next);  // a temporary would die before the loop body
  for (const Row& row : comparison.points.at(0).rows) {
    if (row.metric != "input_throughput" && row.metric != "total_throughput") continue;
    EXPECT_EQ(row.verdict, Verdict::not_comparable) << row.metric;
    EXPECT_FALSE(row.new_value) << row.metric;
  }
}

TEST(Compare, WarnsWhenTheSimulatorsSettingsDiffer) {
  json base = compare_fixture("run_c4.json");
  base["simulator"] = {{"profile", "fixed"}, {"time_scale", 1.0}, {"faults", json::object()}};
  json scaled = base;
  scaled["simulator"]["time_scale"] = 10.0;
  EXPECT_EQ(compared(base, scaled).warnings,
            std::vector<std::string>{"base and new differ in simulator time scale (1 vs 10): the "
                                     "comparison may be meaningless"});
  json other_profile = base;
  other_profile["simulator"]["profile"] = "pcie-8gpu-moe";
  EXPECT_EQ(compared(base, other_profile).warnings.size(), 1u);
  json real_server = base;
  real_server["embedded_server"] = false;
  real_server["simulator"] = nullptr;
  EXPECT_EQ(compared(base, real_server).warnings,
            std::vector<std::string>{"base and new differ in embedded_server (true vs false): the "
                                     "comparison may be meaningless"});
}

TEST(Compare, WarningsNeverFailTheComparison) {
  const json base = compare_fixture("run_c4.json");
  json next = base;
  next["config"]["input_len"] = 64;
  const Comparison comparison = compared(base, next, 0.0);
  EXPECT_EQ(comparison.warnings.size(), 1u);
  EXPECT_FALSE(comparison.failed());
}

TEST(Compare, WarnsWhenARunWasInterrupted) {
  const json base = compare_fixture("run_c4.json");
  json next = base;
  next["interrupted"] = true;
  EXPECT_EQ(compared(base, next).warnings,
            std::vector<std::string>{"new was interrupted: its figures cover part of the run"});
}

TEST(Compare, RefusesWhatIsNotAResultsObject) {
  const json run = compare_fixture("run_c4.json");
  EXPECT_EQ(refusal(json::array(), run), "base.json: not a bench results object (a JSON object)");
  EXPECT_EQ(refusal(run, {{"hello", 1}}),
            "new.json: not a bench results object (neither output_throughput nor points)");
  json comparison_output = {{"kind", "comparison"}, {"points", json::array()}};
  EXPECT_EQ(refusal(run, comparison_output),
            "new.json: \"kind\": \"comparison\" is neither a run, a sweep nor a search");
  json newer = run;
  newer["schema_version"] = 2;
  EXPECT_EQ(refusal(newer, run), "base.json: schema_version 2 is newer than this bench reads (1)");
}

}  // namespace

namespace {

TEST(Compare, ShowsTheInputSplitWhenASideKnowsIt) {
  json base = compare_fixture("run_c4.json");
  base["computed_input_throughput"] = 1000.0;
  base["cached_input_share"] = 0.0;
  json next = base;
  next["computed_input_throughput"] = 500.0;
  next["cached_input_share"] = 0.5;
  const Comparison comparison = compared(base, next, 0.05);
  const Row& computed = row(comparison, "computed_input_throughput");
  EXPECT_EQ(computed.unit, "input tok/s");
  EXPECT_EQ(computed.verdict, Verdict::regression);
  const Row& share = row(comparison, "cached_input_share");
  EXPECT_EQ(share.direction, Direction::lower_is_better);
  // Worse, but a property of the workload and the cache: it never fails a comparison.
  EXPECT_EQ(share.verdict, Verdict::worse);
  EXPECT_EQ(comparison.regressions(), 1u);
}

TEST(Compare, AnUndisclosedSplitIsNotComparableAndAbsentOnBothSidesShowsNoRow) {
  json base = compare_fixture("run_c4.json");
  base["computed_input_throughput"] = 1000.0;
  base["cached_input_share"] = 0.02;
  json next = compare_fixture("run_c4.json");
  next["computed_input_throughput"] = nullptr;  // the server did not disclose cached tokens
  next["cached_input_share"] = nullptr;
  const Comparison comparison = compared(base, next);
  for (const char* metric : {"computed_input_throughput", "cached_input_share"}) {
    EXPECT_EQ(row(comparison, metric).verdict, Verdict::not_comparable) << metric;
    EXPECT_FALSE(row(comparison, metric).new_value) << metric;
  }
  EXPECT_FALSE(has_row(compared(next, next), "cached_input_share"));
}

}  // namespace
