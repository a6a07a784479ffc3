// A closed loop that never reached its --concurrency says so in its results' warnings and its
// report (results/load_warning.hpp): `--concurrency 256 --num-prompts 100` reported "Max
// concurrency: 256" beside 97.7 achieved, its steady-state window gone without a word.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>

#include "bench/results/load_warning.hpp"

namespace load_warning_test {

using bench::metrics::RunSummary;
using bench::results::RunContext;

RunSummary closed_loop(std::int64_t target, std::int64_t sent, bool steady) {
  RunSummary summary;
  summary.steady_state.target_in_flight = target;
  summary.sent = sent;
  summary.achieved_concurrency = 97.7;
  summary.steady_state.found = steady;
  return summary;
}

RunContext closed_context(std::int64_t concurrency) {
  RunContext context;
  context.concurrency = concurrency;
  context.request_rate = std::numeric_limits<double>::infinity();
  return context;
}

std::optional<std::string> load_not_reached_warning(const RunSummary& summary) {
  return bench::results::load_not_reached_warning(
      summary, closed_context(summary.steady_state.target_in_flight));
}

TEST(LoadWarning, AConcurrencyAboveTheRequestsSentWasNeverReached) {
  const auto warning = load_not_reached_warning(closed_loop(256, 100, false));
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->rfind("--concurrency 256 was never reached: the run sent 100 measured "
                           "requests, so at most 100 were in flight at once (achieved 97.7)",
                           0),
            0u)
      << *warning;
  EXPECT_NE(warning->find("no steady-state window"), std::string::npos) << *warning;
}

TEST(LoadWarning, AReachableLoadOrAnOpenLoopDrawsNone) {
  EXPECT_FALSE(load_not_reached_warning(closed_loop(100, 100, true)));
  EXPECT_FALSE(load_not_reached_warning(closed_loop(4, 1000, true)));
  RunContext open = closed_context(256);
  open.request_rate = 10;  // an open loop capped at 256: its peak is the steady state's target
  EXPECT_FALSE(bench::results::load_not_reached_warning(closed_loop(256, 100, true), open));
}

TEST(LoadWarning, ASteadyStateFoundIsNotSaidMissing) {
  const auto warning = load_not_reached_warning(closed_loop(110, 100, true));
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->find("steady"), std::string::npos) << *warning;
}

}  // namespace load_warning_test
