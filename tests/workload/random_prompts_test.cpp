#include "bench/workload/random_prompts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "text_helpers.hpp"

namespace {

using bench::testing::words_of;
using bench::workload::length_range;
using bench::workload::LengthRange;
using bench::workload::make_random_prompts;
using bench::workload::Prompt;
using bench::workload::RandomPromptOptions;

// The message of the std::invalid_argument thrown for `options`, or "" if none was thrown.
std::string invalid_argument_message(const RandomPromptOptions& options) {
  try {
    make_random_prompts(options);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(RandomPrompts, SameSeedGivesTheSamePrompts) {
  const RandomPromptOptions options{20, 64, 16, 1234};
  const std::vector<Prompt> first = make_random_prompts(options);
  const std::vector<Prompt> second = make_random_prompts(options);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].text, second[i].text);
}

// Pinned text: the draw uses only SplitMix64's output (integer arithmetic fixed by its constants)
// and no std::*_distribution (implementation-defined), so these are the prompts on every
// platform and standard library. A change here changes the workload of every published result
// and must bump kPromptGeneratorVersion. These were checked against a separate Python
// implementation of SplitMix64 (Vigna's splitmix64.c), the rejection draw and the word list.
TEST(RandomPrompts, SeedGivesTheSamePromptsOnEveryPlatform) {
  const std::vector<Prompt> prompts = make_random_prompts({3, 8, 1, 42});
  ASSERT_EQ(prompts.size(), 3u);
  EXPECT_EQ(prompts[0].text, "0 up himself while water again around turned");
  EXPECT_EQ(prompts[1].text, "1 these are name their over back sure");
  EXPECT_EQ(prompts[2].text, "2 without at with enough see help air");
}

TEST(RandomPrompts, DifferentSeedGivesDifferentPrompts) {
  const std::vector<Prompt> a = make_random_prompts({5, 64, 16, 1});
  const std::vector<Prompt> b = make_random_prompts({5, 64, 16, 2});
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NE(a[i].text, b[i].text) << "prompt " << i;
}

TEST(RandomPrompts, PromptsOfOneRunDifferBeyondTheirFirstWord) {
  const std::vector<Prompt> prompts = make_random_prompts({10, 32, 16, 7});
  std::set<std::string> tails;
  for (const Prompt& prompt : prompts) tails.insert(prompt.text.substr(prompt.text.find(' ')));
  EXPECT_EQ(tails.size(), prompts.size());
}

TEST(RandomPrompts, EveryPromptHasExactlyInputLenWords) {
  for (std::int64_t input_len : {1, 2, 7, 256, 1000}) {
    const std::vector<Prompt> prompts = make_random_prompts({8, input_len, 5, 99});
    ASSERT_EQ(prompts.size(), 8u);
    for (const Prompt& prompt : prompts) {
      EXPECT_EQ(static_cast<std::int64_t>(words_of(prompt.text).size()), input_len);
      EXPECT_EQ(prompt.input_len, input_len);
      EXPECT_EQ(prompt.output_len, 5);
    }
  }
}

TEST(RandomPrompts, WordsAreSeparatedBySingleSpacesWithNoPadding) {
  for (const Prompt& prompt : make_random_prompts({6, 50, 1, 3})) {
    ASSERT_FALSE(prompt.text.empty());
    EXPECT_NE(prompt.text.front(), ' ');
    EXPECT_NE(prompt.text.back(), ' ');
    EXPECT_EQ(prompt.text.find("  "), std::string::npos);
    for (char c : prompt.text) {
      EXPECT_TRUE(c == ' ' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) << prompt.text;
    }
  }
}

TEST(RandomPrompts, FirstWordsAreDistinctNumbers) {
  const std::vector<Prompt> prompts = make_random_prompts({500, 4, 1, 11});
  std::set<std::string> first_words;
  for (const Prompt& prompt : prompts) {
    const std::string first = words_of(prompt.text).front();
    EXPECT_EQ(first.find_first_not_of("0123456789"), std::string::npos) << first;
    first_words.insert(first);
  }
  EXPECT_EQ(first_words.size(), prompts.size());
}

TEST(RandomPrompts, UsesManyDifferentWords) {
  const std::vector<Prompt> prompts = make_random_prompts({1, 5000, 1, 5});
  const std::vector<std::string> words = words_of(prompts.front().text);
  const std::set<std::string> distinct(words.begin() + 1, words.end());
  EXPECT_GT(distinct.size(), 200u);
}

TEST(RandomPrompts, ZeroCountGivesNoPrompts) {
  EXPECT_TRUE(make_random_prompts({0, 10, 10, 1}).empty());
}

TEST(RandomPrompts, RejectsANegativeCountNamingTheField) {
  EXPECT_NE(invalid_argument_message({-1, 10, 10, 1}).find("count"), std::string::npos);
}

TEST(RandomPrompts, RejectsAnInputLenBelowOneNamingTheField) {
  EXPECT_NE(invalid_argument_message({1, 0, 10, 1}).find("input_len"), std::string::npos);
  EXPECT_NE(invalid_argument_message({1, -3, 10, 1}).find("input_len"), std::string::npos);
}

TEST(RandomPrompts, RejectsAnOutputLenBelowOneNamingTheField) {
  EXPECT_NE(invalid_argument_message({1, 10, 0, 1}).find("output_len"), std::string::npos);
}

// vLLM's RandomDataset.get_sampling_params: [floor(len (1 - r)), ceil(len (1 + r))], >= 1.
TEST(RandomPrompts, LengthRangeIsVllmsFloorAndCeilAroundTheTarget) {
  const auto bounds = [](std::int64_t len, double ratio) {
    const LengthRange range = length_range(len, ratio);
    return std::vector<std::int64_t>{range.low, range.high};
  };
  EXPECT_EQ(bounds(1024, 0.0), (std::vector<std::int64_t>{1024, 1024}));
  EXPECT_EQ(bounds(1024, 0.1), (std::vector<std::int64_t>{921, 1127}));
  EXPECT_EQ(bounds(128, 0.5), (std::vector<std::int64_t>{64, 192}));
  EXPECT_EQ(bounds(100, 0.3), (std::vector<std::int64_t>{70, 130}));
  EXPECT_EQ(bounds(1, 0.9), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(bounds(50, 1.0), (std::vector<std::int64_t>{1, 100}));
}

TEST(RandomPrompts, RejectsARangeRatioOutsideZeroToOneNamingTheFlag) {
  for (double ratio : {-0.1, 1.5, std::nan("")}) {
    try {
      length_range(10, ratio);
      ADD_FAILURE() << "accepted " << ratio;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("--range-ratio"), std::string::npos);
    }
  }
}

// Every length of [5, 15] comes out about equally often, for inputs and outputs alike, and
// each prompt has exactly the number of words its input_len says.
TEST(RandomPrompts, RangeRatioDrawsLengthsUniformlyOverTheRange) {
  RandomPromptOptions options{11000, 10, 10, 3};
  options.range_ratio = 0.5;
  const std::vector<Prompt> prompts = make_random_prompts(options);
  std::map<std::int64_t, int> inputs;
  std::map<std::int64_t, int> outputs;
  for (const Prompt& prompt : prompts) {
    ++inputs[prompt.input_len];
    ++outputs[prompt.output_len];
    ASSERT_EQ(static_cast<std::int64_t>(words_of(prompt.text).size()), prompt.input_len);
  }
  for (const auto* counts : {&inputs, &outputs}) {
    ASSERT_EQ(counts->size(), 11u);
    EXPECT_EQ(counts->begin()->first, 5);
    EXPECT_EQ(counts->rbegin()->first, 15);
    for (const auto& [len, count] : *counts) EXPECT_NEAR(count, 1000, 130) << "length " << len;
  }
}

TEST(RandomPrompts, RangeRatioIsTheSameForASeed) {
  RandomPromptOptions options{40, 100, 20, 8};
  options.range_ratio = 0.25;
  const std::vector<Prompt> a = make_random_prompts(options);
  const std::vector<Prompt> b = make_random_prompts(options);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);
    EXPECT_EQ(a[i].output_len, b[i].output_len);
  }
}

// A random prompt carries no system text, messages or group: the fields other datasets use.
TEST(RandomPrompts, LeaveTheOtherDatasetsFieldsEmpty) {
  for (const Prompt& prompt : make_random_prompts({3, 5, 5, 1})) {
    EXPECT_TRUE(prompt.system_text.empty());
    EXPECT_TRUE(prompt.messages.is_null());
    EXPECT_FALSE(prompt.dataset_max_tokens.has_value());
    EXPECT_EQ(prompt.prefix_group, -1);
  }
}

}  // namespace
