// --prefix-share's check of the server's cache (results/writer.hpp prompt_cache_warning): the
// cached share it served against the share asked. Block rounding and the template's tokens keep
// the share served a little under the share asked, which draws nothing; a cache that did not
// hold the shared system prompt draws one warning line; a point asking 0 is held to the plain
// rule (a high cached share there flatters prefill).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace prefix_share_warning_test {

using bench::metrics::RunSummary;
using bench::results::prompt_cache_warning;
using bench::results::RunContext;

// 100 requests of 1,000 prompt tokens, `cached` of them served from the cache in all.
RunSummary served(std::int64_t cached) {
  RunSummary summary;
  summary.completed = 100;
  summary.input_split.requests = 100;
  summary.input_split.disclosing_requests = 100;
  summary.input_split.cached_tokens = cached;
  summary.input_split.computed_tokens = 100'000 - cached;
  return summary;
}

RunContext asked(std::optional<double> share) {
  RunContext context;
  context.prefix_share = share;
  return context;
}

TEST(PrefixShareWarning, AShareServedALittleUnderTheShareAskedDrawsNothing) {
  EXPECT_EQ(prompt_cache_warning(served(79'000), asked(0.8)), std::nullopt);  // 1 point under
  EXPECT_EQ(prompt_cache_warning(served(70'000), asked(0.8)), std::nullopt);  // blocks, template
  EXPECT_EQ(prompt_cache_warning(served(93'000), asked(0.8)), std::nullopt);  // sessions: more
}

TEST(PrefixShareWarning, ACacheThatDidNotHoldTheSharedPromptIsOneWarningLine) {
  const std::optional<std::string> warning = prompt_cache_warning(served(12'000), asked(0.8));
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("served 12.0% of input tokens where --prefix-share asked 80.0%"),
            std::string::npos)
      << *warning;
  EXPECT_EQ(warning->find('\n'), std::string::npos);
}

TEST(PrefixShareWarning, APointAskingNoShareIsHeldToThePlainRule) {
  EXPECT_EQ(prompt_cache_warning(served(0), asked(0.0)), std::nullopt);
  const std::optional<std::string> flattered = prompt_cache_warning(served(40'000), asked(0.0));
  ASSERT_TRUE(flattered.has_value());
  EXPECT_NE(flattered->find("not meant to share prefixes"), std::string::npos) << *flattered;
}

TEST(PrefixShareWarning, AShareAskedIsSharingMeant) {
  EXPECT_EQ(bench::results::sharing_intent(asked(0.5)),
            bench::results::SharingIntent::prefix_share);
  EXPECT_EQ(bench::results::sharing_intent(asked(0.0)), bench::results::SharingIntent::none);
  // Undisclosed: nothing to check against, so nothing said of a shortfall.
  RunSummary silent = served(0);
  silent.input_split.disclosing_requests = 0;
  silent.input_split.computed_tokens = 0;
  EXPECT_EQ(prompt_cache_warning(silent, asked(0.5)), std::nullopt);
}

}  // namespace prefix_share_warning_test
