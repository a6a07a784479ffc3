// An unknown flag is named in the one error line, with the flag it most likely was, for bench
// and each subcommand: CLI11's own text ("The following arguments were not expected: 4
// --concurency", or a positional taking an unknown flag's value) never names the slip.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::testing::parse_args;

std::string refusal_of(const std::vector<std::string>& args) {
  const bench::cli::ParseResult parsed = parse_args(args);
  EXPECT_EQ(parsed.exit_code, bench::cli::kExitUsage);
  return parsed.message.substr(0, parsed.message.find('\n'));
}

TEST(UnknownFlag, ATypoGetsTheFlagItMostLikelyWas) {
  EXPECT_EQ(refusal_of({"--concurency", "4"}),
            "bench: error: unknown flag --concurency (did you mean --concurrency?)");
  EXPECT_EQ(refusal_of({"--num-promtps=8"}),
            "bench: error: unknown flag --num-promtps (did you mean --num-prompts?)");
}

TEST(UnknownFlag, ASubcommandsFlagsAreItsOwn) {
  // compare's positionals would take the unknown flag's value as a file: the flag is the cause.
  EXPECT_EQ(refusal_of({"compare", "--fial-on-regression", "5%", "a.json", "b.json"}),
            "bench: error: unknown flag --fial-on-regression (did you mean "
            "--fail-on-regression?)");
  EXPECT_EQ(refusal_of({"search", "--slo", "p99_ttft_ms<=500", "--concurency", "2"}),
            "bench: error: unknown flag --concurency (did you mean --concurrency?)");
}

TEST(UnknownFlag, NothingCloseGetsNoGuess) {
  EXPECT_EQ(refusal_of({"--frobnicate", "3"}), "bench: error: unknown flag --frobnicate");
}

TEST(UnknownFlag, AStrayValueKeepsCli11sWords) {
  const std::string message = refusal_of({"--num-prompts", "4", "stray"});
  EXPECT_EQ(message.find("unknown flag"), std::string::npos) << message;
  EXPECT_NE(message.find("stray"), std::string::npos) << message;
}

}  // namespace
