#pragma once
// What `bench ARGS...` parses to: the whole result (for tests of the parser), or the run's
// options (for tests of what is made from them: the run plan, the workload fingerprint), where
// a parse error fails the calling test with the CLI's message.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/cli/options.hpp"

namespace bench::testing {

inline cli::ParseResult parse_args(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return cli::parse_cli(static_cast<int>(argv.size()), argv.data());
}

inline cli::RunOptions parse_run_options(std::vector<std::string> args) {
  const cli::ParseResult parsed = parse_args(std::move(args));
  EXPECT_FALSE(parsed.exit_code.has_value()) << parsed.message;
  return parsed.run;
}

}  // namespace bench::testing
