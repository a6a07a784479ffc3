// The endpoint table through the real binary: a gate or SLO on a figure the chosen endpoint
// cannot produce is a one-line usage error before any request is sent.
#include <gtest/gtest.h>

#include "bench/sim/sim_server.hpp"
#include "usage_errors.hpp"

namespace {

TEST(Endpoints, GateOnAFigureTheEndpointLacksIsRefusedBeforeAnythingIsSent) {
  const bench::testing::UsageErrorCases cases = {
      {{"--endpoint", "completions", "--fail-over", "p99_ttfa_ms=500"},
       "--fail-over: 'p99_ttfa_ms' is a figure of reasoning, which --endpoint completions does "
       "not produce"},
      {{"--endpoint", "completions", "--fail-under", "total_tool_calls=1"},
       "--fail-under: 'total_tool_calls' is a figure of tool calls, which --endpoint "
       "completions does not produce"},
  };
  bench::sim::SimServer server({});
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

}  // namespace
