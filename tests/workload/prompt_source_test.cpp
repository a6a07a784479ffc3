#include "bench/workload/prompt_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/random_prompts.hpp"
#include "letter_tokenizer.hpp"
#include "temp_file.hpp"
#include "text_helpers.hpp"

namespace {

using bench::testing::words_of;
using bench::workload::DatasetKind;
using bench::workload::DatasetOptions;
using bench::workload::open_prompt_source;
using bench::workload::Prompt;
using bench::workload::prompt_index;
using bench::workload::PromptSource;

// Leading words two texts have in common.
std::size_t shared_leading_words(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = words_of(a), y = words_of(b);
  std::size_t n = 0;
  while (n < x.size() && n < y.size() && x[n] == y[n]) ++n;
  return n;
}

DatasetOptions random_options() {
  DatasetOptions options;
  options.kind = DatasetKind::random;
  options.input_len = 32;
  options.output_len = 8;
  options.seed = 7;
  return options;
}

TEST(PromptSource, APromptDependsOnlyOnItsIndexNotOnTheOrderOfAsking) {
  const auto source = open_prompt_source(random_options());
  std::vector<std::string> forward, backward(50);
  for (std::uint64_t i = 0; i < 50; ++i) forward.push_back(source->prompt(i).text);
  for (std::uint64_t i = 50; i-- > 0;) backward[i] = source->prompt(i).text;
  EXPECT_EQ(forward, backward);
}

TEST(PromptSource, StreamZeroIsTheSeedsRandomPrompts) {
  const DatasetOptions options = random_options();
  const auto source = open_prompt_source(options);
  const std::vector<Prompt> made = bench::workload::make_random_prompts(
      {10, options.input_len, options.output_len, options.seed, options.range_ratio});
  for (std::uint64_t i = 0; i < made.size(); ++i) EXPECT_EQ(source->prompt(i).text, made[i].text);
}

TEST(PromptSource, NoTwoRequestsOfAnyStreamsShareMoreThanTheirNumber) {
  // Points and repeats of a run are streams; the first word of a prompt is its request
  // number, everything after it is drawn for the (stream, request) alone.
  const auto source = open_prompt_source(random_options());
  std::vector<std::string> texts;
  for (std::uint64_t stream = 0; stream < 3; ++stream) {
    for (std::uint64_t request = 0; request < 40; ++request) {
      texts.push_back(source->prompt(prompt_index(stream, request)).text);
    }
  }
  for (std::size_t a = 0; a < texts.size(); ++a) {
    for (std::size_t b = a + 1; b < texts.size(); ++b) {
      ASSERT_LE(shared_leading_words(texts[a], texts[b]), 1u) << texts[a] << "\n" << texts[b];
    }
  }
  EXPECT_EQ(std::set<std::string>(texts.begin(), texts.end()).size(), texts.size());
}

TEST(PromptSource, ADifferentSeedGivesDifferentPrompts) {
  DatasetOptions other = random_options();
  other.seed = 8;
  const auto a = open_prompt_source(random_options());
  const auto b = open_prompt_source(other);
  for (std::uint64_t i = 0; i < 20; ++i) EXPECT_NE(a->prompt(i).text, b->prompt(i).text);
}

TEST(PromptSource, ThreadsAskingAtOnceGetTheSamePrompts) {
  const auto source = open_prompt_source(random_options());
  std::vector<std::string> alone;
  for (std::uint64_t i = 0; i < 200; ++i) alone.push_back(source->prompt(i).text);
  std::vector<std::string> even(200), odd(200);
  std::thread t1([&] {
    for (std::uint64_t i = 0; i < 200; i += 2) even[i] = source->prompt(i).text;
  });
  std::thread t2([&] {
    for (std::uint64_t i = 1; i < 200; i += 2) odd[i] = source->prompt(i).text;
  });
  t1.join();
  t2.join();
  for (std::uint64_t i = 0; i < 200; ++i) EXPECT_EQ(alone[i], i % 2 == 0 ? even[i] : odd[i]);
}

TEST(PromptSource, RandomPromptsHaveTheirLengthsInEveryStream) {
  DatasetOptions options = random_options();
  options.range_ratio = 0.5;
  const auto source = open_prompt_source(options);
  for (std::uint64_t stream = 0; stream < 2; ++stream) {
    for (std::uint64_t request = 0; request < 30; ++request) {
      const Prompt prompt = source->prompt(prompt_index(stream, request));
      EXPECT_EQ(static_cast<std::int64_t>(words_of(prompt.text).size()), prompt.input_len);
      EXPECT_GE(prompt.input_len, 16);
      EXPECT_LE(prompt.input_len, 48);
      EXPECT_GE(prompt.output_len, 4);
      EXPECT_LE(prompt.output_len, 12);
    }
  }
  EXPECT_FALSE(source->distinct_prompts().has_value());
  EXPECT_FALSE(source->shares_prefixes());
}

DatasetOptions shared_prefix_options() {
  DatasetOptions options;
  options.kind = DatasetKind::shared_prefix;
  options.prefix_groups = 4;
  options.prefix_len = 20;
  options.questions_per_group = 5;
  options.input_len = 6;
  options.output_len = 3;
  options.seed = 3;
  return options;
}

TEST(PromptSource, SharedPrefixRequestsShareTheirGroupsPrefixAndNothingElse) {
  const auto source = open_prompt_source(shared_prefix_options());
  EXPECT_TRUE(source->shares_prefixes());
  std::map<std::int64_t, int> per_group;
  std::map<std::int64_t, std::string> prefix_of_group;
  std::set<std::string> questions;
  for (std::uint64_t stream = 0; stream < 2; ++stream) {
    for (std::uint64_t request = 0; request < 20; ++request) {
      const Prompt prompt = source->prompt(prompt_index(stream, request));
      if (stream == 0) ++per_group[prompt.prefix_group];
      const auto [it, fresh] = prefix_of_group.emplace(prompt.prefix_group, prompt.system_text);
      EXPECT_EQ(it->second, prompt.system_text);
      EXPECT_EQ(words_of(prompt.system_text).size(), 20u);
      EXPECT_EQ(prompt.input_len, 26);
      questions.insert(prompt.text);
    }
  }
  // One round (groups x questions) holds every group questions_per_group times.
  EXPECT_EQ(per_group, (std::map<std::int64_t, int>{{0, 5}, {1, 5}, {2, 5}, {3, 5}}));
  EXPECT_EQ(prefix_of_group.size(), 4u);
  EXPECT_EQ(questions.size(), 40u);  // every question new, across streams too
}

TEST(PromptSource, AFileGivesEachStreamItsOwnItemsWhileTheyLast) {
  std::string lines;
  for (int i = 0; i < 10; ++i) lines += "{\"prompt\": \"item " + std::to_string(i) + "\"}\n";
  const bench::testing::TempFile file("prompt-source.jsonl", lines);
  DatasetOptions options;
  options.kind = DatasetKind::jsonl;
  options.path = file.path();
  options.count = 4;  // requests a stream
  const auto source = open_prompt_source(options);
  ASSERT_EQ(source->distinct_prompts(), std::optional<std::uint64_t>(10));
  std::set<std::string> first_two_streams;
  for (std::uint64_t stream = 0; stream < 2; ++stream) {
    for (std::uint64_t request = 0; request < 4; ++request) {
      first_two_streams.insert(source->prompt(prompt_index(stream, request)).text);
    }
  }
  EXPECT_EQ(first_two_streams.size(), 8u);
  // The third stream runs past the file's 10 items: repeats, drawn the same every time.
  for (std::uint64_t request = 0; request < 4; ++request) {
    const std::uint64_t index = prompt_index(2, request);
    EXPECT_EQ(source->prompt(index).text, source->prompt(index).text);
  }
  EXPECT_NE(source->summary().find("jsonl"), std::string::npos);
}

// --seed for a file: the order its items are sent in (vLLM and SGLang shuffle before taking
// them) and the draws past its end; the set of items is the file's whatever the seed.
TEST(PromptSource, AFilesOrderDependsOnlyOnTheSeed) {
  const std::string path = std::string(BENCH_TEST_DATA_DIR) + "/datasets/sharegpt_sample.json";
  const auto order_of = [&path](std::uint64_t seed) {
    DatasetOptions options;
    options.kind = DatasetKind::sharegpt;
    options.path = path;
    options.seed = seed;
    const auto source = open_prompt_source(options);
    std::vector<std::string> texts;
    for (std::uint64_t request = 0; request < 20; ++request) {
      texts.push_back(source->prompt(prompt_index(0, request)).text);
    }
    return texts;
  };
  const std::vector<std::string> a = order_of(1), b = order_of(1), c = order_of(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()), std::set<std::string>(c.begin(), c.end()));
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), 20u);
}

// What the run holds against the server's max_model_len before sending anything: the request
// with the most prompt plus its own max_tokens (not the longest prompt with the largest
// max_tokens of another line), in tokens with a tokenizer, in words without.
TEST(PromptSource, AJsonlFileKnowsItsLongestRequestInTokensOrWords) {
  const bench::testing::TempFile file(
      "longest.jsonl",
      "{\"prompt\": \"abcdefghij klmnopqrst\", \"max_tokens\": 5}\n"  // 20 letters + 5
      "{\"prompt\": \"ab cd ef\", \"max_tokens\": 30}\n"              // 6 letters + 30
      "{\"prompt\": \"abc\"}\n");                                     // 3 + --output-len 8
  DatasetOptions options;
  options.kind = DatasetKind::jsonl;
  options.path = file.path();
  options.output_len = 8;
  const workload_test::LetterTokenizer letters;
  const auto in_tokens = open_prompt_source(options, {&letters})->longest_request();
  ASSERT_TRUE(in_tokens.has_value());
  EXPECT_TRUE(in_tokens->in_tokens);
  EXPECT_EQ(in_tokens->prompt_len, 6);
  EXPECT_EQ(in_tokens->output_len, 30);
  EXPECT_EQ(in_tokens->longest_prompt, 20);
  const auto in_words = open_prompt_source(options)->longest_request();
  ASSERT_TRUE(in_words.has_value());
  EXPECT_FALSE(in_words->in_tokens);
  EXPECT_EQ(in_words->prompt_len, 3);
  EXPECT_EQ(in_words->output_len, 30);
  EXPECT_EQ(in_words->longest_prompt, 3);
}

TEST(PromptSource, AShareGptFileKnowsItsLongestUsableConversation) {
  const bench::testing::TempFile file(
      "longest.json",
      R"([{"conversations": [{"from": "human", "value": "abcd efgh"},
                             {"from": "gpt", "value": "abcd abcd"}]},
          {"conversations": [{"from": "human", "value": "abcdefghijklmnop"},
                             {"from": "gpt", "value": "abcd"}]}])");
  DatasetOptions options;
  options.kind = DatasetKind::sharegpt;
  options.path = file.path();
  const workload_test::LetterTokenizer letters;
  const auto longest = open_prompt_source(options, {&letters})->longest_request();
  ASSERT_TRUE(longest.has_value());
  EXPECT_TRUE(longest->in_tokens);
  EXPECT_EQ(longest->prompt_len, 16);  // 16 + 4 beats 8 + 8
  EXPECT_EQ(longest->output_len, 4);
}

TEST(PromptSource, ATraceKnowsItsLongestRowAndSharedPrefixOnlyItsWords) {
  DatasetOptions trace;
  trace.kind = DatasetKind::trace;
  trace.path = std::string(BENCH_TEST_DATA_DIR) + "/traces/mooncake_sample.jsonl";
  const auto rows = open_prompt_source(trace)->longest_request();
  ASSERT_TRUE(rows.has_value());
  EXPECT_FALSE(rows->in_tokens);      // no tokenizer: the trace's token counts are sent as words
  EXPECT_EQ(rows->prompt_len, 2426);  // the sample's longest row: 2426 + 6
  EXPECT_EQ(rows->output_len, 6);

  const auto shared = open_prompt_source(shared_prefix_options())->longest_request();
  ASSERT_TRUE(shared.has_value());
  EXPECT_FALSE(shared->in_tokens);
  EXPECT_EQ(shared->prompt_len, 26);  // the 20-word prefix and a 6-word question
  EXPECT_EQ(shared->output_len, 3);

  EXPECT_FALSE(open_prompt_source(random_options())->longest_request().has_value());
}

TEST(PromptSource, BadOptionsAreRefusedNamingTheFlag) {
  DatasetOptions options = shared_prefix_options();
  options.prefix_groups = 0;
  try {
    open_prompt_source(options);
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--prefix-groups"), std::string::npos);
  }
  DatasetOptions file;
  file.kind = DatasetKind::sharegpt;
  EXPECT_THROW(open_prompt_source(file), std::invalid_argument);
}

}  // namespace
