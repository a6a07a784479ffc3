// Fault plans: each kind at its fraction, deterministic for a seed, independent of the other
// kinds' fractions, and one response's worth of precedence when several are drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "bench/sim/faults.hpp"

namespace {

using bench::sim::draw_fault_plan;
using bench::sim::FaultPlan;
using bench::sim::SimOptions;
using bench::sim::SplitMix64;
using bench::sim::StreamCut;

struct Kind {
  std::string name;
  std::function<double&(SimOptions&)> fraction;
  std::function<bool(const FaultPlan&)> met;
};

std::vector<Kind> kinds() {
  return {
      {"http_429", [](SimOptions& o) -> double& { return o.fail_429_fraction; },
       [](const FaultPlan& p) { return p.http_status == 429; }},
      {"http_500", [](SimOptions& o) -> double& { return o.fail_500_fraction; },
       [](const FaultPlan& p) { return p.http_status == 500; }},
      {"http_503", [](SimOptions& o) -> double& { return o.fail_503_fraction; },
       [](const FaultPlan& p) { return p.http_status == 503; }},
      {"reset", [](SimOptions& o) -> double& { return o.reset_fraction; },
       [](const FaultPlan& p) { return p.cut == StreamCut::reset; }},
      {"truncate", [](SimOptions& o) -> double& { return o.truncate_fraction; },
       [](const FaultPlan& p) { return p.cut == StreamCut::truncate; }},
      {"stream_error", [](SimOptions& o) -> double& { return o.stream_error_fraction; },
       [](const FaultPlan& p) { return p.cut == StreamCut::stream_error; }},
      {"stall", [](SimOptions& o) -> double& { return o.stall_fraction; },
       [](const FaultPlan& p) { return p.stall; }},
      {"malformed_json", [](SimOptions& o) -> double& { return o.malformed_json_fraction; },
       [](const FaultPlan& p) { return p.malformed_json; }},
      {"no_usage", [](SimOptions& o) -> double& { return o.no_usage_fraction; },
       [](const FaultPlan& p) { return p.no_usage; }},
      {"multi_token", [](SimOptions& o) -> double& { return o.multi_token_fraction; },
       [](const FaultPlan& p) { return p.tokens_per_chunk > 1; }},
      {"crlf", [](SimOptions& o) -> double& { return o.crlf_fraction; },
       [](const FaultPlan& p) { return p.crlf; }},
      {"comments", [](SimOptions& o) -> double& { return o.comment_fraction; },
       [](const FaultPlan& p) { return p.comments; }},
      {"metrics_miscount", [](SimOptions& o) -> double& { return o.metrics_miscount_fraction; },
       [](const FaultPlan& p) { return p.metrics_miscount; }},
  };
}

// How many of `requests` plans (seeds drawn in order from one generator) meet `met`.
int count_met(const SimOptions& options, const std::function<bool(const FaultPlan&)>& met,
              int requests = 4000) {
  SplitMix64 seeds(options.seed);
  int count = 0;
  for (int i = 0; i < requests; ++i) count += met(draw_fault_plan(options, seeds.next()));
  return count;
}

TEST(Faults, EachKindStrikesEveryRequestAtOneNoneAtZeroAndItsShareInBetween) {
  for (const Kind& kind : kinds()) {
    SimOptions options;
    EXPECT_EQ(count_met(options, kind.met), 0) << kind.name;
    kind.fraction(options) = 1.0;
    EXPECT_EQ(count_met(options, kind.met), 4000) << kind.name;
    kind.fraction(options) = 0.25;
    const int met = count_met(options, kind.met);
    EXPECT_GT(met, 900) << kind.name;  // 1000 expected; 5 standard deviations is ~137
    EXPECT_LT(met, 1100) << kind.name;
  }
}

TEST(Faults, AFaultAloneAtOneNamesOnlyItselfInTheTruthLog) {
  for (const Kind& kind : kinds()) {
    SimOptions options;
    kind.fraction(options) = 1.0;
    EXPECT_EQ(draw_fault_plan(options, 99).names_json(), "[\"" + kind.name + "\"]");
  }
  EXPECT_EQ(draw_fault_plan(SimOptions{}, 99).names_json(), "[]");
}

TEST(Faults, TheSameSeedGivesTheSamePlans) {
  SimOptions options;
  options.stall_fraction = 0.5;
  options.reset_fraction = 0.5;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    EXPECT_EQ(draw_fault_plan(options, seed).names_json(),
              draw_fault_plan(options, seed).names_json());
  }
}

TEST(Faults, OneKindsFractionDoesNotMoveAnotherKindsChoices) {
  SimOptions quiet;
  quiet.stall_fraction = 0.3;
  SimOptions noisy = quiet;
  noisy.fail_429_fraction = 0.7;
  noisy.crlf_fraction = 0.9;
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    EXPECT_EQ(draw_fault_plan(quiet, seed).stall, draw_fault_plan(noisy, seed).stall);
  }
}

TEST(Faults, OneResponseCanCarryOneStatusAndOneCutOnly) {
  SimOptions options;
  options.fail_429_fraction = options.fail_500_fraction = options.fail_503_fraction = 1.0;
  EXPECT_EQ(draw_fault_plan(options, 1).http_status, 429);
  options.fail_429_fraction = 0;
  EXPECT_EQ(draw_fault_plan(options, 1).http_status, 503);
  options.reset_fraction = options.truncate_fraction = options.stream_error_fraction = 1.0;
  EXPECT_EQ(draw_fault_plan(options, 1).cut, StreamCut::reset);
  options.reset_fraction = 0;
  EXPECT_EQ(draw_fault_plan(options, 1).cut, StreamCut::truncate);
}

TEST(Faults, StallLengthAndChunkSizeComeFromTheirFlags) {
  SimOptions options;
  options.stall_fraction = 1.0;
  options.stall_s = 1.5;
  options.multi_token_fraction = 1.0;
  options.multi_token_count = 5;
  const FaultPlan plan = draw_fault_plan(options, 3);
  EXPECT_EQ(plan.stall_ns, 1'500'000'000);
  EXPECT_EQ(plan.tokens_per_chunk, 5);
  options.send_usage = false;  // --no-usage is no_usage for everyone
  EXPECT_TRUE(draw_fault_plan(options, 3).no_usage);
}

TEST(Faults, JitterIsUniformUpToTwiceItsMeanAndScaledWithSimulatedTime) {
  SimOptions options;
  EXPECT_EQ(draw_fault_plan(options, 5).jitter_ns, 0);
  options.jitter_ms = 20;
  SplitMix64 seeds(1);
  double sum_ms = 0;
  std::int64_t longest_ns = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::int64_t jitter_ns = draw_fault_plan(options, seeds.next()).jitter_ns;
    ASSERT_GE(jitter_ns, 0);
    ASSERT_LE(jitter_ns, 40'000'000);
    sum_ms += static_cast<double>(jitter_ns) / 1e6;
    longest_ns = std::max(longest_ns, jitter_ns);
  }
  EXPECT_NEAR(sum_ms / 4000, 20.0, 0.6);  // std of the mean: 20 / sqrt(3 x 4000) = 0.18 ms
  EXPECT_GT(longest_ns, 39'000'000);
  SimOptions faster = options;
  faster.time_scale = 4;
  EXPECT_EQ(draw_fault_plan(faster, 77).jitter_ns,
            std::llround(static_cast<double>(draw_fault_plan(options, 77).jitter_ns) / 4));
}

TEST(Faults, AJitterChangesNoFaultsChoices) {
  SimOptions quiet;
  quiet.stall_fraction = quiet.crlf_fraction = quiet.comment_fraction = 0.5;
  SimOptions jittered = quiet;
  jittered.jitter_ms = 30;
  for (std::uint64_t seed = 0; seed < 500; ++seed) {
    EXPECT_EQ(draw_fault_plan(quiet, seed).names_json(),
              draw_fault_plan(jittered, seed).names_json());
  }
}

TEST(Faults, SplitMixUniformDrawsStayInTheUnitInterval) {
  SplitMix64 random(0);
  double sum = 0;
  for (int i = 0; i < 10'000; ++i) {
    const double u = random.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 10'000, 0.5, 0.02);
}

}  // namespace
