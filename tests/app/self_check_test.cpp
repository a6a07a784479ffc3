#include "bench/app/self_check.hpp"

#include <string>

#include <gtest/gtest.h>

namespace {

using bench::app::check_client;
using bench::metrics::ClientLoad;

bool says_bodies_built_on_loop(const bench::report::ClientCheck& check) {
  for (const std::string& warning : check.warnings) {
    if (warning.find("built on the event loop") != std::string::npos) return true;
  }
  return false;
}

TEST(SelfCheck, BodiesBuiltOnTheEventLoopPastOnePercentAreAWarning) {
  bench::metrics::RunSummary summary;
  summary.sent = 1000;
  ClientLoad load;
  load.threads = 1;
  load.bodies_built_on_loop = 10;  // the opening burst caught the producer starting: no sign
  EXPECT_FALSE(says_bodies_built_on_loop(check_client(summary, load)));
  load.bodies_built_on_loop = 11;
  const bench::report::ClientCheck check = check_client(summary, load);
  EXPECT_TRUE(says_bodies_built_on_loop(check));
  EXPECT_TRUE(check.saturated);
}

}  // namespace
