#pragma once
// The options `bench ARGS...` parses to, for tests of what is made from them (the run plan, the
// workload fingerprint). A parse error fails the calling test with the CLI's message.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/cli/options.hpp"

namespace bench::testing {

inline cli::RunOptions parse_run_options(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  const cli::ParseResult parsed = cli::parse_cli(static_cast<int>(argv.size()), argv.data());
  EXPECT_FALSE(parsed.exit_code.has_value()) << parsed.message;
  return parsed.run;
}

}  // namespace bench::testing
