#pragma once
// Each set of flags, given to the real bench against `server`, must be a usage error: exit 2
// with one line on stderr that mentions what it says, and not one request sent. For the tests
// of a feature's refusals (tools, images, ...).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"

namespace bench::testing {

// (flags, a text the one line must contain)
using UsageErrorCases = std::vector<std::pair<std::vector<std::string>, std::string>>;

inline void expect_usage_errors_with_nothing_sent(const bench::sim::SimServer& server,
                                                  const UsageErrorCases& cases) {
  for (const auto& [flags, must_mention] : cases) {
    std::vector<std::string> args = {"--base-url", server.base_url(), "--num-prompts", "2"};
    args.insert(args.end(), flags.begin(), flags.end());
    const ProcessResult result = run_process(BENCH_BINARY, args);
    SCOPED_TRACE(must_mention);
    EXPECT_EQ(result.exit_code, bench::cli::kExitUsage) << result.err;
    EXPECT_NE(result.err.find(must_mention), std::string::npos) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
  EXPECT_EQ(server.requests_served(), 0u);
}

}  // namespace bench::testing
