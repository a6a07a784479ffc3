// parse_gate and check_metric: what a --fail-under, --fail-over or --max-error-rate value
// becomes, and the one-line message (naming the flag and the value) for each way it can be
// wrong, including a misspelt metric caught before anything is sent.
#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bench/gate/gate.hpp"
#include "bench/gate/metric_names.hpp"
#include "bench/gate/slo.hpp"

namespace {

using bench::gate::check_metric;
using bench::gate::Gate;
using bench::gate::GateError;
using bench::gate::GateKind;
using bench::gate::parse_gate;

Gate parsed(GateKind kind, const std::string& spec) {
  auto result = parse_gate(kind, spec);
  if (const GateError* error = std::get_if<GateError>(&result)) {
    ADD_FAILURE() << spec << ": " << error->message;
    return {};
  }
  return std::get<Gate>(result);
}

std::string refusal(GateKind kind, const std::string& spec,
                    const std::vector<std::string>& known = bench::results::run_metric_names()) {
  auto result = parse_gate(kind, spec, known);
  if (std::holds_alternative<Gate>(result)) {
    ADD_FAILURE() << spec << " was accepted";
    return "";
  }
  return std::get<GateError>(result).message;
}

TEST(ParseGate, ReadsMetricAndLimit) {
  const Gate gate = parsed(GateKind::fail_under, "output_throughput=800");
  EXPECT_EQ(gate.kind, GateKind::fail_under);
  EXPECT_EQ(gate.metric, "output_throughput");
  EXPECT_DOUBLE_EQ(gate.limit, 800);
  EXPECT_EQ(gate.spec, "output_throughput=800");
}

TEST(ParseGate, AcceptsDecimalsExponentsNegativesAndSpaces) {
  EXPECT_DOUBLE_EQ(parsed(GateKind::fail_over, "p99_ttft_ms=512.5").limit, 512.5);
  EXPECT_DOUBLE_EQ(parsed(GateKind::fail_under, "output_throughput=1.5e3").limit, 1500);
  EXPECT_DOUBLE_EQ(parsed(GateKind::fail_under, "output_throughput=-1").limit, -1);
  const Gate spaced = parsed(GateKind::fail_over, "p99_ttft_ms = 500");
  EXPECT_EQ(spaced.metric, "p99_ttft_ms");
  EXPECT_DOUBLE_EQ(spaced.limit, 500);
}

TEST(ParseGate, RefusesSpecWithoutEqualsNamingFlagAndValue) {
  EXPECT_EQ(refusal(GateKind::fail_under, "output_throughput"),
            "--fail-under: 'output_throughput' needs METRIC=VALUE");
  EXPECT_EQ(refusal(GateKind::fail_over, "=500"), "--fail-over: '=500' needs METRIC=VALUE");
  EXPECT_EQ(refusal(GateKind::fail_over, "p99_ttft_ms="),
            "--fail-over: 'p99_ttft_ms=' needs METRIC=VALUE");
  EXPECT_EQ(refusal(GateKind::fail_under, ""), "--fail-under: '' needs METRIC=VALUE");
}

TEST(ParseGate, RefusesValueThatIsNotAFiniteNumber) {
  EXPECT_EQ(refusal(GateKind::fail_under, "output_throughput=fast"),
            "--fail-under: 'output_throughput=fast': VALUE 'fast' is not a number");
  EXPECT_EQ(refusal(GateKind::fail_under, "output_throughput=800tok"),
            "--fail-under: 'output_throughput=800tok': VALUE '800tok' is not a number");
  EXPECT_EQ(refusal(GateKind::fail_over, "p99_ttft_ms=inf"),
            "--fail-over: 'p99_ttft_ms=inf': VALUE 'inf' is not a number");
  EXPECT_EQ(refusal(GateKind::fail_over, "p99_ttft_ms=nan"),
            "--fail-over: 'p99_ttft_ms=nan': VALUE 'nan' is not a number");
}

TEST(ParseGate, RefusesMisspeltMetricSuggestingNearest) {
  EXPECT_EQ(refusal(GateKind::fail_over, "p99_ttfft_ms=500"),
            "--fail-over: 'p99_ttfft_ms' is not a metric of bench's results (did you mean "
            "p99_ttft_ms?)");
  // Transposed letters count as one slip.
  EXPECT_EQ(refusal(GateKind::fail_under, "ouptut_throughput=800"),
            "--fail-under: 'ouptut_throughput' is not a metric of bench's results (did you "
            "mean output_throughput?)");
}

TEST(ParseGate, SuggestsTheNameWithItsMissingUnitSuffix) {
  EXPECT_EQ(refusal(GateKind::fail_over, "p99_ttft=1"),
            "--fail-over: 'p99_ttft' is not a metric of bench's results (did you mean "
            "p99_ttft_ms?)");
  EXPECT_NE(refusal(GateKind::fail_over, "median_e2e_latency=1")
                .find("(did you mean median_e2e_latency_ms?)"),
            std::string::npos);
}

// vLLM's result keys (what --json-compat vllm writes) gate bench's figures of the same meaning.
TEST(ParseGate, AcceptsVllmKeyNamesAsBenchs) {
  const std::pair<GateKind, std::string> cases[] = {
      {GateKind::fail_under, "total_token_throughput=1"},
      {GateKind::fail_under, "request_goodput=1"},
      {GateKind::fail_over, "p99_e2el_ms=1"},
      {GateKind::fail_over, "median_e2el_ms=1"}};
  const std::string expected[] = {"total_throughput", "goodput", "p99_e2e_latency_ms",
                                  "median_e2e_latency_ms"};
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    auto parsed = parse_gate(cases[i].first, cases[i].second);
    ASSERT_TRUE(std::holds_alternative<Gate>(parsed)) << cases[i].second;
    EXPECT_EQ(std::get<Gate>(parsed).metric, expected[i]);
    EXPECT_EQ(std::get<Gate>(parsed).spec, cases[i].second);  // messages quote what was given
  }
}

TEST(ParseGate, SloAcceptsVllmKeyNamesAsBenchs) {
  auto parsed = bench::gate::parse_slo("p99_e2el_ms<=500");
  ASSERT_TRUE(std::holds_alternative<Gate>(parsed));
  EXPECT_EQ(std::get<Gate>(parsed).metric, "p99_e2e_latency_ms");
}

TEST(ParseGate, OffersNoSuggestionForAnUnrelatedName) {
  const std::string message = refusal(GateKind::fail_under, "banana=1");
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
  EXPECT_EQ(message.rfind("--fail-under: 'banana' is not a metric of bench's results", 0), 0u)
      << message;
  // The list is in docs/results-format.md, not the README.
  EXPECT_NE(message.find("docs/results-format.md, \"JSON results\""), std::string::npos) << message;
}

TEST(ParseGate, ChecksNamesAgainstTheListGiven) {
  const std::vector<std::string> known = {"output_throughput", "custom_metric"};
  auto accepted = parse_gate(GateKind::fail_under, "custom_metric=3", known);
  ASSERT_TRUE(std::holds_alternative<Gate>(accepted));
  EXPECT_EQ(std::get<Gate>(accepted).metric, "custom_metric");
  EXPECT_NE(refusal(GateKind::fail_over, "p99_ttft_ms=1", known).find("'p99_ttft_ms'"),
            std::string::npos);
}

TEST(ParseGate, ReadsErrorRateAsFractionOrPercent) {
  EXPECT_DOUBLE_EQ(parsed(GateKind::max_error_rate, "0.05").limit, 0.05);
  EXPECT_DOUBLE_EQ(parsed(GateKind::max_error_rate, "5%").limit, 0.05);
  EXPECT_DOUBLE_EQ(parsed(GateKind::max_error_rate, "0").limit, 0);
  EXPECT_DOUBLE_EQ(parsed(GateKind::max_error_rate, "1").limit, 1);
  EXPECT_DOUBLE_EQ(parsed(GateKind::max_error_rate, "100%").limit, 1);
  const Gate gate = parsed(GateKind::max_error_rate, "0.05");
  EXPECT_EQ(gate.kind, GateKind::max_error_rate);
  EXPECT_TRUE(gate.metric.empty());
}

TEST(ParseGate, RefusesErrorRateOutsideZeroToOne) {
  for (const std::string spec : {"5", "-0.1", "101%", "abc", "%", "", "inf"}) {
    EXPECT_EQ(refusal(GateKind::max_error_rate, spec),
              "--max-error-rate: '" + spec +
                  "' is not a fraction from 0 to 1 (0.05, or 5%, lets 5% of requests fail)");
  }
}

TEST(FlagOf, NamesEachKindsFlag) {
  EXPECT_EQ(bench::gate::flag_of(GateKind::fail_under), "--fail-under");
  EXPECT_EQ(bench::gate::flag_of(GateKind::fail_over), "--fail-over");
  EXPECT_EQ(bench::gate::flag_of(GateKind::max_error_rate), "--max-error-rate");
}

TEST(CheckMetric, AcceptsEveryRunMetricName) {
  for (const std::string& name : bench::results::run_metric_names()) {
    EXPECT_FALSE(check_metric("--fail-under", name, bench::results::run_metric_names())) << name;
  }
}

TEST(CheckMetric, RefusesNonNumericAndNestedKeys) {
  // Strings, booleans and objects of the results are not metrics a gate can compare.
  for (const std::string name :
       {"model", "itl_estimated", "config", "errors", "schema_version", "steady_state"}) {
    EXPECT_TRUE(check_metric("--fail-under", name, bench::results::run_metric_names())) << name;
  }
}

}  // namespace
