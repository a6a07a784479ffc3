// --slo values of `bench search`: each read as the gate it is, and every bad value refused in
// one line naming --slo (with the nearest metric name for a misspelt one).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "bench/gate/slo.hpp"

namespace {

using bench::gate::Gate;
using bench::gate::GateError;
using bench::gate::GateKind;
using bench::gate::parse_slo;

Gate slo(const std::string& spec) {
  auto parsed = parse_slo(spec);
  if (const auto* error = std::get_if<GateError>(&parsed)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<Gate>(parsed);
}

std::string refusal(const std::string& spec) {
  auto parsed = parse_slo(spec);
  if (std::holds_alternative<Gate>(parsed)) return "accepted";
  return std::get<GateError>(parsed).message;
}

TEST(Slo, AnUpperBoundIsAFailOverGateAndALowerBoundAFailUnderGate) {
  const Gate ttft = slo("p99_ttft_ms<=500");
  EXPECT_EQ(ttft.kind, GateKind::fail_over);
  EXPECT_EQ(ttft.metric, "p99_ttft_ms");
  EXPECT_EQ(ttft.limit, 500);
  const Gate output = slo(" output_throughput >= 800 ");
  EXPECT_EQ(output.kind, GateKind::fail_under);
  EXPECT_EQ(output.limit, 800);
  EXPECT_EQ(bench::gate::slo_text(output), "output_throughput>=800");
}

TEST(Slo, AnErrorRateIsAFractionOrAPercentage) {
  EXPECT_EQ(slo("error_rate<=0.01").kind, GateKind::max_error_rate);
  EXPECT_DOUBLE_EQ(slo("error_rate<=0.01").limit, 0.01);
  EXPECT_DOUBLE_EQ(slo("error_rate<=2%").limit, 0.02);
  EXPECT_EQ(bench::gate::slo_text(slo("error_rate<=2%")), "error_rate<=0.02");
}

TEST(Slo, RefusesBadValuesInOneLineNamingTheFlag) {
  EXPECT_EQ(refusal("p99_ttft_ms<=abc"), "--slo: 'p99_ttft_ms<=abc': VALUE 'abc' is not a number");
  EXPECT_EQ(refusal("p99_ttft_ms=500"),
            "--slo: 'p99_ttft_ms=500' needs one METRIC<=VALUE or METRIC>=VALUE (p99_ttft_ms<=500)");
  EXPECT_NE(refusal("p99_ttft<=500").find("did you mean p99_ttft_ms?"), std::string::npos)
      << refusal("p99_ttft<=500");
  EXPECT_EQ(refusal("p99_ttft<=500").rfind("--slo: ", 0), 0u);
  EXPECT_NE(refusal("error_rate>=0.5").find("error_rate takes <="), std::string::npos);
  EXPECT_NE(refusal("error_rate<=150%").find("not a fraction"), std::string::npos);
  for (const char* bad : {"p99_ttft_ms<=abc", "x<=1>=2", "<=5"}) {
    EXPECT_EQ(refusal(bad).find('\n'), std::string::npos) << bad;
  }
}

}  // namespace
