#include "bench/workload/shared_prefix.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/util/words.hpp"

namespace {

using bench::util::count_words;
using bench::workload::chat_messages;
using bench::workload::completion_prompt;
using bench::workload::Prompt;
using bench::workload::SharedPrefixOptions;
using bench::workload::SharedPrefixPrompts;
using nlohmann::json;

SharedPrefixOptions small(std::uint64_t seed = 42) {
  SharedPrefixOptions options;
  options.groups = 6;
  options.prefix_len = 200;
  options.questions_per_group = 5;
  options.question_len = 12;
  options.output_len = 32;
  options.seed = seed;
  return options;
}

// One round of stream 0: every group questions_per_group times.
std::vector<Prompt> make_shared_prefix_prompts(const SharedPrefixOptions& options) {
  const SharedPrefixPrompts source(options);
  std::vector<Prompt> prompts;
  for (std::size_t request = 0; request < source.round(); ++request) {
    prompts.push_back(source.prompt(0, request));
  }
  return prompts;
}

std::string first_word(const std::string& text) { return text.substr(0, text.find(' ')); }

TEST(SharedPrefix, MakesGroupsTimesQuestionsRequests) {
  const std::vector<Prompt> prompts = make_shared_prefix_prompts(small());
  EXPECT_EQ(prompts.size(), 30u);
  std::map<std::int64_t, int> per_group;
  for (const Prompt& prompt : prompts) ++per_group[prompt.prefix_group];
  ASSERT_EQ(per_group.size(), 6u);
  for (const auto& [group, count] : per_group) EXPECT_EQ(count, 5) << "group " << group;
}

TEST(SharedPrefix, EachGroupSharesOnePrefixOfExactlyPrefixLenWordsAndNoTwoGroupsShareAny) {
  const std::vector<Prompt> prompts = make_shared_prefix_prompts(small());
  std::map<std::int64_t, std::set<std::string>> prefixes;
  for (const Prompt& prompt : prompts) {
    prefixes[prompt.prefix_group].insert(prompt.system_text);
    EXPECT_EQ(count_words(prompt.system_text), 200);
  }
  std::set<std::string> first_words;
  for (const auto& [group, texts] : prefixes) {
    ASSERT_EQ(texts.size(), 1u) << "group " << group;
    first_words.insert(first_word(*texts.begin()));
  }
  // Distinct from their first word on: no prefix cache can share anything across groups.
  EXPECT_EQ(first_words.size(), 6u);
}

TEST(SharedPrefix, QuestionsAreDistinctFromTheirFirstWordAndCountInTheInputLength) {
  const std::vector<Prompt> prompts = make_shared_prefix_prompts(small());
  std::set<std::string> first_words;
  for (const Prompt& prompt : prompts) {
    EXPECT_EQ(count_words(prompt.text), 12);
    EXPECT_EQ(prompt.input_len, 212);
    EXPECT_EQ(prompt.output_len, 32);
    first_words.insert(first_word(prompt.text));
  }
  EXPECT_EQ(first_words.size(), prompts.size());
}

TEST(SharedPrefix, SameSeedGivesTheSamePrefixesQuestionsAndOrder) {
  const std::vector<Prompt> a = make_shared_prefix_prompts(small(7));
  const std::vector<Prompt> b = make_shared_prefix_prompts(small(7));
  const std::vector<Prompt> c = make_shared_prefix_prompts(small(8));
  ASSERT_EQ(a.size(), b.size());
  bool any_difference = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].system_text, b[i].system_text);
    EXPECT_EQ(a[i].text, b[i].text);
    EXPECT_EQ(a[i].prefix_group, b[i].prefix_group);
    any_difference = any_difference || a[i].system_text != c[i].system_text;
  }
  EXPECT_TRUE(any_difference);
}

// SGLang's generated-shared-prefix shuffles all requests across groups.
TEST(SharedPrefix, RequestsAreShuffledAcrossGroups) {
  SharedPrefixOptions options = small();
  options.groups = 8;
  options.questions_per_group = 8;
  const std::vector<Prompt> shuffled = make_shared_prefix_prompts(options);
  int group_changes = 0;
  for (std::size_t i = 1; i < shuffled.size(); ++i) {
    group_changes += shuffled[i].prefix_group != shuffled[i - 1].prefix_group ? 1 : 0;
  }
  // Grouped would change 7 times; a random order changes about 63 * 7/8 = 55 times.
  EXPECT_GT(group_changes, 40);
}

TEST(SharedPrefix, RangeRatioVariesQuestionsAndOutputsButNotPrefixes) {
  SharedPrefixOptions options = small();
  options.range_ratio = 0.5;
  std::set<std::int64_t> question_lens;
  std::set<std::int64_t> output_lens;
  for (const Prompt& prompt : make_shared_prefix_prompts(options)) {
    EXPECT_EQ(count_words(prompt.system_text), 200);
    const std::int64_t question_len = count_words(prompt.text);
    EXPECT_GE(question_len, 6);
    EXPECT_LE(question_len, 18);
    EXPECT_EQ(prompt.input_len, 200 + question_len);
    EXPECT_GE(prompt.output_len, 16);
    EXPECT_LE(prompt.output_len, 48);
    question_lens.insert(question_len);
    output_lens.insert(prompt.output_len);
  }
  EXPECT_GT(question_lens.size(), 3u);
  EXPECT_GT(output_lens.size(), 3u);
}

TEST(SharedPrefix, CompletionsGetPrefixThenQuestionAndChatASystemMessage) {
  const Prompt prompt = make_shared_prefix_prompts(small()).front();
  EXPECT_EQ(completion_prompt(prompt), prompt.system_text + "\n\n" + prompt.text);
  EXPECT_EQ(chat_messages(prompt),
            json::array({json{{"role", "system"}, {"content", prompt.system_text}},
                         json{{"role", "user"}, {"content", prompt.text}}}));
}

TEST(SharedPrefix, RejectsValuesBelowOneNamingTheFlag) {
  const auto message = [](void (*change)(SharedPrefixOptions&)) {
    SharedPrefixOptions options = small();
    change(options);
    try {
      make_shared_prefix_prompts(options);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_NE(message([](SharedPrefixOptions& o) { o.groups = 0; }).find("--prefix-groups"),
            std::string::npos);
  EXPECT_NE(message([](SharedPrefixOptions& o) { o.prefix_len = 0; }).find("--prefix-len"),
            std::string::npos);
  EXPECT_NE(message([](SharedPrefixOptions& o) {
              o.questions_per_group = -1;
            }).find("--questions-per-group"),
            std::string::npos);
  EXPECT_NE(message([](SharedPrefixOptions& o) { o.question_len = 0; }).find("--input-len"),
            std::string::npos);
  EXPECT_NE(message([](SharedPrefixOptions& o) { o.output_len = 0; }).find("--output-len"),
            std::string::npos);
}

}  // namespace
