#pragma once
// Tests that count what a server received (its requests, their bodies, its truth log) count the
// run's own: the answer check's known-answer prompts, sent before the run, are not theirs to
// count, so those tests run bench with --no-answer-check (tests/integration/answer_check_test.cpp
// tests the check itself).
#include <string>
#include <vector>

namespace bench::testing {

/// `args` of a run with --no-answer-check added; a subcommand's (merge, report...) as given.
inline std::vector<std::string> without_answer_check(std::vector<std::string> args) {
  if (!args.empty() && !args.front().starts_with("-")) return args;
  args.emplace_back("--no-answer-check");
  return args;
}

}  // namespace bench::testing
