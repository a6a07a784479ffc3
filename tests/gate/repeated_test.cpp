// Gates on a point measured several times (--repeat): the mean decides by default, the worst
// repeat with GateOn::worst, and a sweep's repeated points each on their own.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/gate/gate.hpp"
#include "bench/results/repeats.hpp"

namespace {

using bench::gate::evaluate;
using bench::gate::Gate;
using bench::gate::GateKind;
using bench::gate::GateOn;
using nlohmann::json;

Gate gate_of(GateKind kind, const std::string& spec) {
  return std::get<Gate>(bench::gate::parse_gate(kind, spec));
}

json run(double output, double p99_ttft_ms) {
  return {{"kind", "run"},
          {"output_throughput", output},
          {"p99_ttft_ms", p99_ttft_ms},
          {"sent", 10},
          {"failed", 0}};
}

// Three repeats whose mean output is 100 tok/s and mean p99 TTFT 400 ms; the worst repeat
// makes 90 tok/s and 480 ms.
json repeated() {
  return bench::results::combine_repeats({run(90, 480), run(100, 320), run(110, 400)});
}

TEST(RepeatedGates, JudgeTheMeanOfTheRepeatsByDefault) {
  const std::vector<Gate> gates = {gate_of(GateKind::fail_under, "output_throughput=95"),
                                   gate_of(GateKind::fail_over, "p99_ttft_ms=450")};
  EXPECT_FALSE(evaluate(gates, repeated()).failed());
  const std::vector<Gate> strict = {gate_of(GateKind::fail_under, "output_throughput=101")};
  const auto outcome = evaluate(strict, repeated());
  ASSERT_EQ(outcome.violations.size(), 1u);
  EXPECT_EQ(outcome.violations[0].message,
            "gate failed at mean of 3 repeats: output_throughput = 100 < 101 (--fail-under)");
}

TEST(RepeatedGates, JudgeEveryRepeatWithGateOnWorst) {
  const std::vector<Gate> gates = {gate_of(GateKind::fail_under, "output_throughput=95"),
                                   gate_of(GateKind::fail_over, "p99_ttft_ms=450")};
  const auto outcome = evaluate(gates, repeated(), GateOn::worst);
  ASSERT_EQ(outcome.violations.size(), 2u);
  EXPECT_EQ(outcome.violations[0].point, "repeat 1 of 3");
  EXPECT_EQ(outcome.violations[0].value, 90);
  EXPECT_EQ(outcome.violations[1].message,
            "gate failed at repeat 1 of 3: p99_ttft_ms = 480 > 450 (--fail-over)");
  EXPECT_EQ(outcome.points, 3u);
}

TEST(RepeatedGates, HoldForEachRepeatedPointOfASweep) {
  const json sweep = {{"kind", "sweep"},
                      {"sweep", {{"variable", "concurrency"}, {"values", {1, 8}}}},
                      {"points", {repeated(), run(50, 100)}}};
  const std::vector<Gate> gates = {gate_of(GateKind::fail_under, "output_throughput=95")};
  const auto outcome = evaluate(gates, sweep);
  ASSERT_EQ(outcome.violations.size(), 1u);
  EXPECT_EQ(outcome.violations[0].point, "concurrency=8");
  EXPECT_EQ(evaluate(gates, sweep, GateOn::worst).violations.size(), 2u);
}

}  // namespace
