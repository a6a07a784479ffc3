#include "bench/workload/sampling.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::workload::fit_to_count;
using bench::workload::Prompt;
using bench::workload::shuffle_prompts;

std::vector<Prompt> numbered(int n) {
  std::vector<Prompt> prompts;
  for (int i = 0; i < n; ++i) {
    Prompt prompt;
    prompt.text = "item " + std::to_string(i);
    prompts.push_back(prompt);
  }
  return prompts;
}

std::vector<std::string> texts(const std::vector<Prompt>& prompts) {
  std::vector<std::string> out;
  for (const Prompt& prompt : prompts) out.push_back(prompt.text);
  return out;
}

TEST(Sampling, MorePromptsThanNeededKeepsTheFirstOnes) {
  EXPECT_EQ(texts(fit_to_count(numbered(5), 3, 1)),
            (std::vector<std::string>{"item 0", "item 1", "item 2"}));
  EXPECT_TRUE(fit_to_count(numbered(5), 0, 1).empty());
}

// vLLM's maybe_oversample_requests: every item once, then random picks with replacement.
TEST(Sampling, FewerPromptsKeepsEachOnceThenSamplesWithReplacement) {
  const std::vector<Prompt> fitted = fit_to_count(numbered(4), 4000, 9);
  ASSERT_EQ(fitted.size(), 4000u);
  EXPECT_EQ(texts(std::vector<Prompt>(fitted.begin(), fitted.begin() + 4)),
            texts(numbered(4)));
  std::map<std::string, int> counts;
  for (const Prompt& prompt : fitted) ++counts[prompt.text];
  ASSERT_EQ(counts.size(), 4u);
  for (const auto& [text, count] : counts) EXPECT_NEAR(count, 1000, 120) << text;
}

TEST(Sampling, OversamplingIsTheSameForASeed) {
  EXPECT_EQ(texts(fit_to_count(numbered(3), 50, 4)), texts(fit_to_count(numbered(3), 50, 4)));
  EXPECT_NE(texts(fit_to_count(numbered(3), 50, 4)), texts(fit_to_count(numbered(3), 50, 5)));
}

TEST(Sampling, NothingToSampleFromIsAnError) {
  EXPECT_THROW(fit_to_count({}, 3, 1), std::invalid_argument);
  EXPECT_TRUE(fit_to_count({}, 0, 1).empty());
}

TEST(Sampling, ShuffleIsAPermutationThatDependsOnlyOnTheSeed) {
  std::vector<Prompt> a = numbered(50);
  std::vector<Prompt> b = numbered(50);
  std::vector<Prompt> c = numbered(50);
  shuffle_prompts(a, 7);
  shuffle_prompts(b, 7);
  shuffle_prompts(c, 8);
  EXPECT_EQ(texts(a), texts(b));
  EXPECT_NE(texts(a), texts(c));
  EXPECT_NE(texts(a), texts(numbered(50)));
  std::vector<std::string> sorted = texts(a);
  std::vector<std::string> original = texts(numbered(50));
  std::sort(sorted.begin(), sorted.end());
  std::sort(original.begin(), original.end());
  EXPECT_EQ(sorted, original);
}

}  // namespace
