// evaluate: gates held against real results (tests/data/compare, runs against the embedded
// server), on a single run and on every point of a sweep; one line per violation; a metric
// that is missing, null or not a number fails its gate instead of passing silently.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/gate/gate.hpp"
#include "results_fixtures.hpp"

namespace {

using bench::gate::evaluate;
using bench::gate::Gate;
using bench::gate::GateKind;
using bench::gate::GateOutcome;
using bench::testing::compare_fixture;
using nlohmann::json;

Gate gate(GateKind kind, const std::string& spec) {
  auto result = bench::gate::parse_gate(kind, spec);
  if (auto* error = std::get_if<bench::gate::GateError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<Gate>(result);
}

Gate under(const std::string& metric, double limit) {
  return gate(GateKind::fail_under, fmt::format("{}={}", metric, limit));
}
Gate over(const std::string& metric, double limit) {
  return gate(GateKind::fail_over, fmt::format("{}={}", metric, limit));
}
Gate max_error_rate(double limit) {
  return gate(GateKind::max_error_rate, fmt::format("{}", limit));
}

std::vector<std::string> messages(const GateOutcome& outcome) {
  std::vector<std::string> out;
  for (const auto& violation : outcome.violations) out.push_back(violation.message);
  return out;
}

TEST(Evaluate, AGateOnAnUnknownInputFigureFailsWithAClearLine) {
  // A run without usage: this older file wrote its unknown input figures as 0 and output.
  const json run = compare_fixture("run_c4_no_usage.json");
  const Gate gates[] = {under("input_throughput", 0), over("total_throughput", 1e9)};
  const GateOutcome outcome = evaluate(gates, run);
  EXPECT_EQ(messages(outcome),
            (std::vector<std::string>{
                "gate failed: input_throughput is unknown: the server sent no prompt_tokens for "
                "some requests (--fail-under input_throughput=0 cannot be checked)",
                "gate failed: total_throughput is unknown: the server sent no prompt_tokens for "
                "some requests (--fail-over total_throughput=1000000000 cannot be checked)"}));
}

TEST(Evaluate, PassesWhenEveryGateHolds) {
  const json run = compare_fixture("run_c4.json");
  const double output = run["output_throughput"].get<double>();
  const double p99_ttft = run["p99_ttft_ms"].get<double>();
  const std::vector<Gate> gates = {under("output_throughput", output / 2),
                                   over("p99_ttft_ms", p99_ttft * 2), max_error_rate(0)};
  const GateOutcome outcome = evaluate(gates, run);
  EXPECT_FALSE(outcome.failed()) << bench::gate::render_violations(outcome);
  EXPECT_EQ(outcome.gates.size(), 3u);
  EXPECT_EQ(outcome.points, 1u);
  EXPECT_EQ(bench::gate::render_violations(outcome), "");
}

TEST(Evaluate, FailUnderNamesMetricValueLimitAndFlag) {
  const json run = compare_fixture("run_c4.json");
  const Gate huge = under("output_throughput", 1e9);
  const GateOutcome outcome = evaluate({&huge, 1}, run);
  ASSERT_EQ(outcome.violations.size(), 1u);
  const auto& violation = outcome.violations[0];
  EXPECT_EQ(violation.message.rfind("gate failed: output_throughput = ", 0), 0u)
      << violation.message;
  EXPECT_TRUE(violation.message.ends_with(" < 1000000000 (--fail-under)")) << violation.message;
  ASSERT_TRUE(violation.value);
  EXPECT_DOUBLE_EQ(*violation.value, run["output_throughput"].get<double>());
  EXPECT_TRUE(violation.point.empty());
}

TEST(Evaluate, FormatsTheLineAsPeopleReadIt) {
  const json run = {{"output_throughput", 612.3}, {"p99_ttft_ms", 812.456}};
  const std::vector<Gate> gates = {under("output_throughput", 800), over("p99_ttft_ms", 500)};
  EXPECT_EQ(messages(evaluate(gates, run)),
            (std::vector<std::string>{"gate failed: output_throughput = 612.3 < 800 (--fail-under)",
                                      "gate failed: p99_ttft_ms = 812.46 > 500 (--fail-over)"}));
}

TEST(Evaluate, ShowsEnoughDigitsToTellValueFromLimit) {
  const json run = {{"output_throughput", 799.9999}};
  const Gate at = under("output_throughput", 800);
  EXPECT_EQ(
      messages(evaluate({&at, 1}, run)),
      std::vector<std::string>{"gate failed: output_throughput = 799.9999 < 800 (--fail-under)"});
}

TEST(Evaluate, ValueEqualToTheLimitPasses) {
  const json run = compare_fixture("run_c4.json");
  const double output = run["output_throughput"].get<double>();
  const double p99_ttft = run["p99_ttft_ms"].get<double>();
  const std::vector<Gate> at_limit = {
      {GateKind::fail_under, "output_throughput", output, "output_throughput=x"},
      {GateKind::fail_over, "p99_ttft_ms", p99_ttft, "p99_ttft_ms=x"}};
  EXPECT_FALSE(evaluate(at_limit, run).failed());
}

TEST(Evaluate, FailOverCatchesLatencyAboveLimit) {
  const json run = compare_fixture("run_c4_slow.json");
  const double p99_tpot = run["p99_tpot_ms"].get<double>();
  const Gate tight = over("p99_tpot_ms", p99_tpot * 0.9);
  const GateOutcome outcome = evaluate({&tight, 1}, run);
  ASSERT_EQ(outcome.violations.size(), 1u);
  EXPECT_NE(outcome.violations[0].message.find(" > "), std::string::npos);
  EXPECT_TRUE(outcome.violations[0].message.ends_with("(--fail-over)"));
}

TEST(Evaluate, ErrorRateIsFailedOverSent) {
  const json run = compare_fixture("run_c4_failures.json");
  const double failed = run["failed"].get<double>();
  const double sent = run["sent"].get<double>();
  ASSERT_GT(failed, 0) << "the fixture must hold failed requests";
  const double rate = failed / sent;
  const Gate at_rate{GateKind::max_error_rate, "", rate, "x"};
  EXPECT_FALSE(evaluate({&at_rate, 1}, run).failed());
  const Gate below = max_error_rate(rate / 2);
  const GateOutcome outcome = evaluate({&below, 1}, run);
  ASSERT_EQ(outcome.violations.size(), 1u);
  const std::string counts = fmt::format("({} failed / {} sent)", failed, sent);
  EXPECT_NE(outcome.violations[0].message.find(counts), std::string::npos)
      << outcome.violations[0].message;
  ASSERT_TRUE(outcome.violations[0].value);
  EXPECT_DOUBLE_EQ(*outcome.violations[0].value, rate);
}

TEST(Evaluate, ErrorRateLineReadsAsFraction) {
  const json run = {{"sent", 16}, {"failed", 4}};
  const Gate budget = max_error_rate(0.1);
  EXPECT_EQ(messages(evaluate({&budget, 1}, run)),
            std::vector<std::string>{
                "gate failed: error rate = 0.25 (4 failed / 16 sent) > 0.1 (--max-error-rate)"});
}

TEST(Evaluate, CleanRunPassesAZeroErrorBudget) {
  const Gate none = max_error_rate(0);
  EXPECT_FALSE(evaluate({&none, 1}, compare_fixture("run_c4.json")).failed());
  EXPECT_TRUE(evaluate({&none, 1}, compare_fixture("run_c4_failures.json")).failed());
}

TEST(Evaluate, NoRequestSentFailsTheErrorRateGate) {
  json run = compare_fixture("run_c4.json");
  run["sent"] = 0;
  run["failed"] = 0;
  const Gate budget = max_error_rate(0.5);
  EXPECT_EQ(messages(evaluate({&budget, 1}, run)),
            std::vector<std::string>{"gate failed: no measured request was sent "
                                     "(--max-error-rate 0.5 cannot be checked)"});
}

TEST(Evaluate, MissingMetricFailsItsGate) {
  const json run = compare_fixture("run_c4.json");
  ASSERT_FALSE(run.contains("goodput")) << "the fixture predates goodput";
  const Gate goodput = under("goodput", 40);
  EXPECT_EQ(messages(evaluate({&goodput, 1}, run)),
            std::vector<std::string>{"gate failed: goodput is missing from the results "
                                     "(--fail-under goodput=40 cannot be checked)"});
}

TEST(Evaluate, NullMetricFailsItsGateWithAHint) {
  json run = compare_fixture("run_c4.json");
  run["goodput"] = nullptr;  // docs/results-schema: what a run without --goodput writes
  const Gate goodput = under("goodput", 40);
  EXPECT_EQ(messages(evaluate({&goodput, 1}, run)),
            std::vector<std::string>{
                "gate failed: goodput is unknown: not measured in this run, which needs "
                "--goodput SLOs (--fail-under goodput=40 cannot be checked)"});
}

TEST(Evaluate, NonNumericMetricFailsItsGate) {
  json run = compare_fixture("run_c4.json");
  run["request_rate"] = "inf";  // docs/results-schema: a closed loop's offered rate
  const Gate rate = over("request_rate", 10);
  EXPECT_EQ(messages(evaluate({&rate, 1}, run)),
            std::vector<std::string>{"gate failed: request_rate is \"inf\", not a number "
                                     "(--fail-over request_rate=10 cannot be checked)"});
  run["output_throughput"] = true;
  const Gate output = under("output_throughput", 1);
  EXPECT_TRUE(evaluate({&output, 1}, run).failed());
}

TEST(Evaluate, ChecksEverySweepPointAndNamesTheFailingOnes) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  const json& points = sweep["points"];
  ASSERT_EQ(points.size(), 3u);
  // Between the second and third points' figures: the first two fail, the third passes.
  const double second = points[1]["output_throughput"].get<double>();
  const double third = points[2]["output_throughput"].get<double>();
  ASSERT_LT(second, third);
  const Gate floor = under("output_throughput", (second + third) / 2);
  const GateOutcome outcome = evaluate({&floor, 1}, sweep);
  EXPECT_EQ(outcome.points, 3u);
  ASSERT_EQ(outcome.violations.size(), 2u);
  EXPECT_EQ(outcome.violations[0].point, "concurrency=1");
  EXPECT_EQ(outcome.violations[1].point, "concurrency=2");
  EXPECT_EQ(
      outcome.violations[0].message.rfind("gate failed at concurrency=1: output_throughput = ", 0),
      0u)
      << outcome.violations[0].message;
  EXPECT_EQ(
      outcome.violations[1].message.rfind("gate failed at concurrency=2: output_throughput = ", 0),
      0u)
      << outcome.violations[1].message;
}

TEST(Evaluate, ListsViolationsByGateThenPoint) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  const std::vector<Gate> gates = {under("output_throughput", 1e9), over("p99_ttft_ms", 0)};
  const GateOutcome outcome = evaluate(gates, sweep);
  ASSERT_EQ(outcome.violations.size(), 6u);
  const std::vector<std::string> expected_points = {"concurrency=1", "concurrency=2",
                                                    "concurrency=4"};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(outcome.violations[i].gate.metric, i < 3 ? "output_throughput" : "p99_ttft_ms");
    EXPECT_EQ(outcome.violations[i].point, expected_points[i % 3]);
  }
  const std::string lines = bench::gate::render_violations(outcome);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 6);
}

TEST(Evaluate, LabelsRateSweepPointsByTheirRate) {
  json sweep = compare_fixture("sweep_c1_2_4.json");
  sweep["sweep"] = {{"variable", "request_rate"}, {"values", {1, 4.5, "inf"}}};
  const Gate huge = under("output_throughput", 1e9);
  const GateOutcome outcome = evaluate({&huge, 1}, sweep);
  ASSERT_EQ(outcome.violations.size(), 3u);
  EXPECT_EQ(outcome.violations[0].point, "request_rate=1");
  EXPECT_EQ(outcome.violations[1].point, "request_rate=4.5");
  EXPECT_EQ(outcome.violations[2].point, "request_rate=inf");
}

// A prefix-share sweep (--prefix-share 0,0.5,0.9): each point named by the share it asked, from
// the sweep's list or, without one, from the point's own prefix_share; a cached share the
// server did not disclose is unknown, never a pass.
TEST(Evaluate, LabelsPrefixShareSweepPointsByTheirShare) {
  json sweep = compare_fixture("sweep_c1_2_4.json");
  sweep["sweep"] = {{"variable", "prefix_share"}, {"values", {0, 0.5, 0.9}}};
  const double shares[] = {0, 0.5, 0.9};
  for (std::size_t i = 0; i < 3; ++i) {
    sweep["points"][i]["prefix_share"] = shares[i];
    sweep["points"][i]["cached_input_share"] = i == 2 ? json() : json(shares[i]);
  }
  const Gate huge = under("output_throughput", 1e9);
  const GateOutcome outcome = evaluate({&huge, 1}, sweep);
  ASSERT_EQ(outcome.violations.size(), 3u);
  EXPECT_EQ(outcome.violations[0].point, "prefix_share=0");
  EXPECT_EQ(outcome.violations[1].point, "prefix_share=0.5");
  EXPECT_EQ(outcome.violations[2].point, "prefix_share=0.9");
  EXPECT_EQ(outcome.violations[1].message.rfind(
                "gate failed at prefix_share=0.5: output_throughput = ", 0),
            0u)
      << outcome.violations[1].message;
  sweep["sweep"].erase("values");
  EXPECT_EQ(evaluate({&huge, 1}, sweep).violations[1].point, "prefix_share=0.5");
  const Gate cached = under("cached_input_share", 0.4);
  const GateOutcome served = evaluate({&cached, 1}, sweep);
  ASSERT_EQ(served.violations.size(), 2u);
  EXPECT_EQ(served.violations[0].point, "prefix_share=0");
  EXPECT_EQ(served.violations[1].point, "prefix_share=0.9");
  EXPECT_NE(served.violations[1].message.find("cached_input_share is unknown"), std::string::npos)
      << served.violations[1].message;
}

TEST(Evaluate, LabelsPointsByConfiguredNotAchievedConcurrency) {
  json sweep = compare_fixture("sweep_c1_2_4.json");
  sweep["sweep"].erase("values");  // the label must then come from each point's own setting
  const Gate huge = under("output_throughput", 1e9);
  const GateOutcome outcome = evaluate({&huge, 1}, sweep);
  ASSERT_EQ(outcome.violations.size(), 3u);
  EXPECT_EQ(outcome.violations[2].point, "concurrency=4");
}

TEST(Evaluate, APointThatIsNotAnObjectFailsEveryGate) {
  json sweep = compare_fixture("sweep_c1_2_4.json");
  sweep["points"][1] = "garbage";
  sweep["sweep"]["values"] = {1, 4};  // no longer one per point: labels come from the points
  const Gate floor = under("output_throughput", 1);
  EXPECT_EQ(messages(evaluate({&floor, 1}, sweep)),
            std::vector<std::string>{"gate failed at point 2: the point is not a JSON object "
                                     "(--fail-under output_throughput=1 cannot be checked)"});
}

TEST(Evaluate, SweepWithoutPointsFailsEveryGate) {
  const json empty = {{"kind", "sweep"}, {"points", json::array()}};
  const std::vector<Gate> gates = {under("output_throughput", 1), max_error_rate(0.1)};
  EXPECT_EQ(messages(evaluate(gates, empty)),
            (std::vector<std::string>{
                "gate failed: the sweep has no points (--fail-under output_throughput=1 cannot "
                "be checked)",
                "gate failed: the sweep has no points (--max-error-rate 0.1 cannot be "
                "checked)"}));
}

TEST(Evaluate, ResultsThatAreNotAnObjectFailEveryGate) {
  const Gate floor = under("output_throughput", 1);
  EXPECT_TRUE(evaluate({&floor, 1}, json::array()).failed());
  EXPECT_TRUE(evaluate({&floor, 1}, json()).failed());
}

TEST(Evaluate, NoGatesNeverFail) {
  EXPECT_FALSE(evaluate({}, json()).failed());
  EXPECT_FALSE(evaluate({}, compare_fixture("run_c4_failures.json")).failed());
}

TEST(ToJson, RecordsGatesAndViolations) {
  const json sweep = compare_fixture("sweep_c1_2_4.json");
  const std::vector<Gate> gates = {over("p99_ttft_ms", 0), max_error_rate(0.1)};
  const GateOutcome outcome = evaluate(gates, sweep);
  const json out = bench::gate::to_json(outcome);
  EXPECT_EQ(out["passed"], false);
  ASSERT_EQ(out["gates"].size(), 2u);
  EXPECT_EQ(out["gates"][0],
            (json{{"flag", "--fail-over"}, {"metric", "p99_ttft_ms"}, {"limit", 0.0}}));
  EXPECT_EQ(out["gates"][1]["metric"], "error_rate");
  ASSERT_EQ(out["violations"].size(), 3u);
  EXPECT_EQ(out["violations"][2]["point"], "concurrency=4");
  EXPECT_EQ(out["violations"][2]["value"], sweep["points"][2]["p99_ttft_ms"]);
  EXPECT_EQ(out["violations"][2]["message"], outcome.violations[2].message);

  const json passed = bench::gate::to_json(evaluate({}, sweep));
  EXPECT_EQ(passed["passed"], true);
  EXPECT_TRUE(passed["violations"].empty());
}

}  // namespace

namespace {

TEST(Evaluate, FailOverCachedInputShareCatchesACacheFlatteredRun) {
  json run = compare_fixture("run_c4.json");
  run["cached_input_share"] = 0.25;
  const Gate gates[] = {over("cached_input_share", 0.1)};
  const GateOutcome outcome = evaluate(gates, run);
  ASSERT_TRUE(outcome.failed());
  EXPECT_NE(messages(outcome).at(0).find("cached_input_share"), std::string::npos)
      << messages(outcome).at(0);
  run["cached_input_share"] = 0.05;
  EXPECT_FALSE(evaluate(gates, run).failed());
}

TEST(Evaluate, AGateOnAnUndisclosedCachedShareFailsSayingWhatItNeeds) {
  json run = compare_fixture("run_c4.json");
  run["cached_input_share"] = nullptr;
  const Gate gates[] = {over("cached_input_share", 0.1)};
  EXPECT_EQ(messages(evaluate(gates, run)),
            std::vector<std::string>{
                "gate failed: cached_input_share is unknown: it needs a server that discloses "
                "cached prompt tokens "
                "(usage.prompt_tokens_details.cached_tokens) (--fail-over cached_input_share=0.1 "
                "cannot be checked)"});
}

}  // namespace

// issue 28: a run in which nothing completed has no latency values. Its figures are null, and
// every gate on one fails saying the figure is unknown, whichever way the gate points.
TEST(Evaluate, AGateOnAFigureWithNoValuesFailsSayingItIsUnknown) {
  json run = compare_fixture("run_c4.json");
  run["completed"] = 0;
  run["p99_ttft_ms"] = nullptr;
  run["median_e2e_latency_ms"] = nullptr;
  const Gate gates[] = {over("p99_ttft_ms", 500), under("median_e2e_latency_ms", 1)};
  const GateOutcome outcome = evaluate(gates, run);
  EXPECT_TRUE(outcome.failed());
  EXPECT_EQ(messages(outcome),
            (std::vector<std::string>{
                "gate failed: p99_ttft_ms is unknown: no request completed, so it has no "
                "values (--fail-over p99_ttft_ms=500 cannot be checked)",
                "gate failed: median_e2e_latency_ms is unknown: no request completed, so it has "
                "no values (--fail-under median_e2e_latency_ms=1 cannot be checked)"}));
  const json written = bench::gate::to_json(outcome);
  EXPECT_EQ(written["passed"], false);
  EXPECT_TRUE(written["violations"][0]["value"].is_null());
}

// --no-stream: a run that streamed no request has no TTFT, ITL or TPOT (null), so a gate on one
// fails saying why, while its E2E gates as ever.
TEST(Evaluate, AGateOnATokenTimingOfARunThatStreamedNothingFailsSayingWhy) {
  json run = compare_fixture("run_c4.json");
  run["requests_not_streamed"] = run["completed"];
  run["p99_ttft_ms"] = nullptr;
  run["median_itl_ms"] = nullptr;
  run["median_output_throughput_per_user"] = nullptr;
  const Gate gates[] = {over("p99_ttft_ms", 500), over("median_itl_ms", 10),
                        under("median_output_throughput_per_user", 1),
                        over("median_e2e_latency_ms", 1e9)};
  const GateOutcome outcome = evaluate(gates, run);
  EXPECT_TRUE(outcome.failed());
  EXPECT_EQ(
      messages(outcome),
      (std::vector<std::string>{
          "gate failed: p99_ttft_ms is unknown: no request was streamed (--no-stream), and it is "
          "timed from a stream's chunks (--fail-over p99_ttft_ms=500 cannot be checked)",
          "gate failed: median_itl_ms is unknown: no request was streamed (--no-stream), and it "
          "is timed from a stream's chunks (--fail-over median_itl_ms=10 cannot be checked)",
          "gate failed: median_output_throughput_per_user is unknown: no request was streamed "
          "(--no-stream), and it is timed from a stream's chunks (--fail-under "
          "median_output_throughput_per_user=1 cannot be checked)"}));
}

// A vLLM name gates bench's figure: total_token_throughput is total_throughput.
TEST(Evaluate, AVllmKeyNameGatesBenchsFigure) {
  const json run = compare_fixture("run_c4.json");
  const double total = run["total_throughput"].get<double>();
  const Gate passes = under("total_token_throughput", total - 1);
  const Gate fails = under("total_token_throughput", total + 1);
  EXPECT_FALSE(evaluate({&passes, 1}, run).failed());
  EXPECT_TRUE(evaluate({&fails, 1}, run).failed());
}
