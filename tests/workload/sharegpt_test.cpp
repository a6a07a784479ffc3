#include "bench/workload/sharegpt.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/dataset_error.hpp"
#include "data_dirs.hpp"
#include "temp_file.hpp"

namespace {

using bench::testing::TempFile;
using bench::workload::DatasetError;
using bench::workload::DatasetKind;
using bench::workload::DatasetOptions;
using bench::workload::Prompt;
using bench::workload::ShareGptFile;
using bench::workload::ShareGptStats;
using nlohmann::json;

using bench::testing::kDatasetsDir;

DatasetOptions sharegpt_in_file_order(const std::string& path) {
  DatasetOptions options;
  options.kind = DatasetKind::sharegpt;
  options.path = path;
  return options;
}

struct ShareGptDataset {
  std::vector<Prompt> prompts;
  ShareGptStats stats;
};

// One token per letter (every byte but a space): a word of n letters is n tokens, so a count
// in words and one in tokens never agree.
class LetterTokenizer final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    return std::vector<bench::tokenizer::TokenId>(
        static_cast<std::size_t>(
            std::count_if(text.begin(), text.end(), [](char c) { return c != ' '; })),
        0);
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return none_; }
  const std::string& description() const override { return description_; }

 private:
  std::vector<std::string> none_;
  std::string description_ = "letters";
};

// Indexes the file, then reads every usable conversation back from its byte range.
ShareGptDataset load_sharegpt(const DatasetOptions& options,
                              const bench::tokenizer::Tokenizer* tokenizer = nullptr) {
  const ShareGptFile file(options, tokenizer);
  ShareGptDataset dataset{{}, file.stats()};
  for (std::size_t i = 0; i < file.size(); ++i) dataset.prompts.push_back(file.item(i));
  return dataset;
}

const Prompt* find_prompt(const std::vector<Prompt>& prompts, const std::string& start) {
  for (const Prompt& prompt : prompts) {
    if (prompt.text.rfind(start, 0) == 0) return &prompt;
  }
  return nullptr;
}

std::string words(int n, const std::string& word = "word") {
  std::string text;
  for (int i = 0; i < n; ++i) text += (i == 0 ? "" : " ") + word;
  return text;
}

json conversation(const std::string& prompt, const std::string& reply) {
  return json{{"conversations", json::array({json{{"from", "human"}, {"value", prompt}},
                                             json{{"from", "gpt"}, {"value", reply}}})}};
}

std::string error_of(const DatasetOptions& options) {
  try {
    load_sharegpt(options);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

// tests/data/datasets/README.md lists what each entry of the sample is for.
TEST(ShareGpt, SampleEntriesAreEachCountedOnceByWhatHappenedToThem) {
  const ShareGptDataset dataset =
      load_sharegpt(sharegpt_in_file_order(kDatasetsDir + "sharegpt_sample.json"));
  const ShareGptStats& stats = dataset.stats;
  EXPECT_EQ(stats.entries, 31u);
  EXPECT_EQ(stats.usable, 20u);
  EXPECT_EQ(stats.malformed, 3u);
  EXPECT_EQ(stats.too_few_turns, 3u);
  EXPECT_EQ(stats.no_reply, 1u);
  EXPECT_EQ(stats.too_short, 2u);
  EXPECT_EQ(stats.too_long, 2u);
  EXPECT_EQ(stats.entries, stats.usable + stats.malformed + stats.too_few_turns + stats.no_reply +
                               stats.too_short + stats.too_long);
  EXPECT_EQ(dataset.prompts.size(), 20u);
}

TEST(ShareGpt, PromptIsTheFirstHumanTurnAndOutputIsTheReplysLengthInWords) {
  const std::vector<Prompt> prompts =
      load_sharegpt(sharegpt_in_file_order(kDatasetsDir + "sharegpt_sample.json")).prompts;
  ASSERT_EQ(prompts.size(), 20u);
  EXPECT_EQ(prompts[0].text,
            "What is the difference between a process and a thread in an operating system? "
            "Please give an example.");
  EXPECT_EQ(prompts[0].input_len, 18);
  EXPECT_EQ(prompts[0].output_len, 86);
  EXPECT_TRUE(prompts[0].system_text.empty());
  EXPECT_TRUE(prompts[0].messages.is_null());
  EXPECT_FALSE(prompts[0].dataset_max_tokens.has_value());
  // A conversation that opens with the model's turn: the prompt is the human's turn.
  const Prompt* lasagna = find_prompt(prompts, "I need a recipe for a vegetarian lasagna");
  ASSERT_NE(lasagna, nullptr);
  EXPECT_EQ(lasagna->output_len, 75);
  // user/assistant speakers, a system turn first, and SGLang's "conversation" key.
  EXPECT_NE(find_prompt(prompts, "How do I reverse a singly linked list"), nullptr);
  EXPECT_NE(find_prompt(prompts, "Plan a three day itinerary for Lisbon"), nullptr);
  EXPECT_NE(find_prompt(prompts, "Explain the CAP theorem"), nullptr);
  // Two human turns in a row: the first is the prompt, the model's answer the reply.
  const Prompt* sql = find_prompt(prompts, "I have a question about SQL queries.");
  ASSERT_NE(sql, nullptr);
  EXPECT_EQ(sql->output_len, 39);
  EXPECT_EQ(find_prompt(prompts, "hi"), nullptr);
  EXPECT_EQ(find_prompt(prompts, "Can you tell me what the capital"), nullptr);
}

// vLLM's is_valid_sequence skips the reply-length check when the output length is fixed.
TEST(ShareGpt, SharegptOutputLenFixesEveryOutputAndSkipsTheReplyLengthCheck) {
  DatasetOptions options = sharegpt_in_file_order(kDatasetsDir + "sharegpt_sample.json");
  options.sharegpt_output_len = 64;
  const ShareGptDataset dataset = load_sharegpt(options);
  EXPECT_EQ(dataset.stats.usable, 22u);
  EXPECT_EQ(dataset.stats.too_short, 1u);
  EXPECT_EQ(dataset.stats.too_long, 1u);
  for (const Prompt& prompt : dataset.prompts) EXPECT_EQ(prompt.output_len, 64);
  EXPECT_NE(find_prompt(dataset.prompts, "Can you tell me what the capital"), nullptr);
  EXPECT_NE(find_prompt(dataset.prompts, "Rewrite this memo"), nullptr);
}

TEST(ShareGpt, RejectsASharegptOutputLenBelowOneNamingTheFlag) {
  DatasetOptions options = sharegpt_in_file_order(kDatasetsDir + "sharegpt_sample.json");
  options.sharegpt_output_len = 0;
  EXPECT_NE(error_of(options).find("--sharegpt-output-len"), std::string::npos);
}

// The thresholds, in words: prompt >= 4, reply >= 4, prompt <= 1024, prompt + output <= 2048.
TEST(ShareGpt, DropsItemsJustOutsideEachThresholdAndKeepsThoseOnIt) {
  json entries = json::array();
  entries.push_back(conversation(words(3, "p3"), words(10)));          // prompt too short
  entries.push_back(conversation(words(4, "p4"), words(10)));          // kept
  entries.push_back(conversation(words(10, "r3"), words(3)));          // reply too short
  entries.push_back(conversation(words(10, "r4"), words(4)));          // kept
  entries.push_back(conversation(words(1025, "p1025"), words(10)));    // prompt too long
  entries.push_back(conversation(words(1024, "p1024"), words(10)));    // kept
  entries.push_back(conversation(words(1000, "t2049"), words(1049)));  // total too long
  entries.push_back(conversation(words(1000, "t2048"), words(1048)));  // kept
  const TempFile file("thresholds.json", entries.dump());
  const ShareGptDataset dataset = load_sharegpt(sharegpt_in_file_order(file.path()));
  EXPECT_EQ(dataset.stats.too_short, 2u);
  EXPECT_EQ(dataset.stats.too_long, 2u);
  std::vector<std::string> kept;
  for (const Prompt& prompt : dataset.prompts) {
    kept.push_back(prompt.text.substr(0, prompt.text.find(' ')));
  }
  EXPECT_EQ(kept, (std::vector<std::string>{"p4", "r4", "p1024", "t2048"}));
  EXPECT_EQ(dataset.prompts.back().input_len + dataset.prompts.back().output_len, 2048);
}

// SGLang's --sharegpt-context-len: prompt + output within it, however long the prompt alone.
TEST(ShareGpt, ContextLenReplacesTheUpperLimitsWithOneOnPromptPlusOutput) {
  json entries = json::array();
  entries.push_back(conversation(words(3000, "p3000"), words(1000)));  // kept: 4000 words
  entries.push_back(conversation(words(3000, "t4001"), words(1001)));  // total too long
  entries.push_back(conversation(words(3, "p3"), words(10)));          // prompt still too short
  const TempFile file("context.json", entries.dump());
  DatasetOptions options = sharegpt_in_file_order(file.path());
  options.sharegpt_context_len = 4000;
  const ShareGptDataset dataset = load_sharegpt(options);
  EXPECT_EQ(dataset.stats.usable, 1u);
  EXPECT_EQ(dataset.stats.too_long, 1u);
  EXPECT_EQ(dataset.stats.too_short, 1u);
  ASSERT_EQ(dataset.prompts.size(), 1u);
  EXPECT_EQ(dataset.prompts[0].input_len, 3000);
  EXPECT_EQ(bench::workload::sharegpt_length_limits(options), "a context of 4000 words");

  options.sharegpt_context_len = 3999;
  EXPECT_NE(error_of(options).find("2 over a context of 3999 words"), std::string::npos)
      << error_of(options);
}

// With a tokenizer the same thresholds hold, in its tokens: prompt >= 4, reply >= 4,
// prompt <= 1024, prompt + output <= 2048 (SGLang and vLLM count them with the model's).
TEST(ShareGpt, WithATokenizerTheThresholdsAndLengthsAreTokens) {
  json entries = json::array();
  entries.push_back(conversation("abcd", "wxyz"));         // kept: 4 + 4 tokens, 1 word each
  entries.push_back(conversation("abc", words(10)));       // prompt too short: 3 tokens
  entries.push_back(conversation(words(10, "r"), "xyz"));  // reply too short: 3 tokens
  entries.push_back(conversation(words(300, "abcd"), words(10)));   // prompt too long: 1200 tokens
  entries.push_back(conversation(words(100, "ab"), words(500)));    // total too long: 200 + 2000
  entries.push_back(conversation(words(256, "abcd"), words(256)));  // kept: 1024 + 1024
  const TempFile file("token_thresholds.json", entries.dump());
  const LetterTokenizer tokenizer;
  const ShareGptDataset dataset = load_sharegpt(sharegpt_in_file_order(file.path()), &tokenizer);
  EXPECT_EQ(dataset.stats.too_short, 2u);
  EXPECT_EQ(dataset.stats.too_long, 2u);
  ASSERT_EQ(dataset.prompts.size(), 2u);
  EXPECT_EQ(dataset.prompts[0].input_len, 4);
  EXPECT_EQ(dataset.prompts[0].client_tokens, 4);
  EXPECT_EQ(dataset.prompts[0].output_len, 4);
  EXPECT_EQ(dataset.prompts[1].input_len, 1024);
  EXPECT_EQ(dataset.prompts[1].output_len, 1024);

  // Without one, the same file is read in words: 1-word prompts are too short.
  const ShareGptDataset in_words = load_sharegpt(sharegpt_in_file_order(file.path()));
  EXPECT_EQ(in_words.stats.too_short, 3u);
  EXPECT_EQ(in_words.prompts.front().client_tokens, -1);
}

TEST(ShareGpt, WithATokenizerSharegptOutputLenStillFixesEveryOutput) {
  json entries = json::array();
  entries.push_back(conversation("abcd", "xyz"));  // a 3-token reply, unchecked when fixed
  const TempFile file("token_output_len.json", entries.dump());
  DatasetOptions options = sharegpt_in_file_order(file.path());
  options.sharegpt_output_len = 7;
  const LetterTokenizer tokenizer;
  const ShareGptDataset dataset = load_sharegpt(options, &tokenizer);
  ASSERT_EQ(dataset.prompts.size(), 1u);
  EXPECT_EQ(dataset.prompts[0].output_len, 7);
}

TEST(ShareGpt, NamesTokensAsTheUnitWhenNothingIsUsable) {
  json entries = json::array();
  entries.push_back(conversation("abc", "wxyz"));
  const TempFile file("token_unusable.json", entries.dump());
  const LetterTokenizer tokenizer;
  std::string message;
  try {
    load_sharegpt(sharegpt_in_file_order(file.path()), &tokenizer);
  } catch (const DatasetError& error) {
    message = error.what();
  }
  EXPECT_NE(message.find("1 under 4 tokens"), std::string::npos) << message;
  EXPECT_NE(message.find("1024 prompt or 2048 total tokens"), std::string::npos) << message;
}

TEST(ShareGpt, SkipsUnknownKeysAndNestedValuesWhereverTheyAre) {
  const json entries = json::parse(R"([
    {"id": "x", "meta": {"tags": ["a", {"deep": [1, 2, {"conversations": []}]}]},
     "conversations": [
       {"from": "human", "value": "please count these five words", "lang": {"code": "en"}},
       {"markdown": ["ignored", {"value": "not this"}], "from": "gpt",
        "value": "one two three four five six"}
     ],
     "trailing": [[[]]]}
  ])");
  const TempFile file("nested.json", entries.dump(2));
  const ShareGptDataset dataset = load_sharegpt(sharegpt_in_file_order(file.path()));
  ASSERT_EQ(dataset.stats.usable, 1u);
  EXPECT_EQ(dataset.prompts[0].text, "please count these five words");
  EXPECT_EQ(dataset.prompts[0].output_len, 6);
}

TEST(ShareGpt, ValueBeforeFromInATurnIsReadTheSame) {
  const TempFile file("order.json", R"([{"conversations": [
      {"value": "what is the time now", "from": "human"},
      {"value": "it is half past four", "from": "gpt"}]}])");
  const ShareGptDataset dataset = load_sharegpt(sharegpt_in_file_order(file.path()));
  ASSERT_EQ(dataset.prompts.size(), 1u);
  EXPECT_EQ(dataset.prompts[0].text, "what is the time now");
}

TEST(ShareGpt, AnItemReadBackTwiceOrOutOfOrderIsTheSame) {
  const ShareGptFile file(sharegpt_in_file_order(kDatasetsDir + "sharegpt_sample.json"));
  ASSERT_EQ(file.size(), 20u);
  EXPECT_EQ(file.item(19).text, file.item(19).text);
  const std::string first = file.item(0).text;
  file.item(7);
  EXPECT_EQ(file.item(0).text, first);
}

TEST(ShareGpt, MissingFileIsAnErrorNamingIt) {
  const std::string message = error_of(sharegpt_in_file_order(kDatasetsDir + "no_such_file.json"));
  EXPECT_NE(message.find("no_such_file.json"), std::string::npos) << message;
  EXPECT_NE(message.find("No such file"), std::string::npos) << message;
}

TEST(ShareGpt, DirectoryIsAnErrorNamingIt) {
  const std::string message = error_of(sharegpt_in_file_order(kDatasetsDir));
  EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
}

TEST(ShareGpt, TruncatedFileIsAnErrorNamingFileLineAndColumn) {
  try {
    load_sharegpt(sharegpt_in_file_order(kDatasetsDir + "sharegpt_truncated.json"));
    FAIL() << "no exception";
  } catch (const DatasetError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.path(), kDatasetsDir + "sharegpt_truncated.json");
    EXPECT_NE(message.find("sharegpt_truncated.json: not valid JSON"), std::string::npos)
        << message;
    EXPECT_NE(message.find("line 6"), std::string::npos) << message;
    EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;
  }
}

TEST(ShareGpt, EmptyFileIsAnErrorNamingIt) {
  const TempFile file("empty.json", "");
  const std::string message = error_of(sharegpt_in_file_order(file.path()));
  EXPECT_NE(message.find(file.path() + ": not valid JSON"), std::string::npos) << message;
}

TEST(ShareGpt, AnObjectInsteadOfAListIsAnErrorSayingWhatWasFound) {
  const std::string message =
      error_of(sharegpt_in_file_order(kDatasetsDir + "sharegpt_not_a_list.json"));
  EXPECT_NE(message.find("sharegpt_not_a_list.json"), std::string::npos) << message;
  EXPECT_NE(message.find("expected a JSON list of conversations, found an object"),
            std::string::npos)
      << message;
}

TEST(ShareGpt, FileWithNothingUsableIsAnErrorCountingWhy) {
  const std::string message =
      error_of(sharegpt_in_file_order(kDatasetsDir + "sharegpt_nothing_usable.json"));
  EXPECT_NE(message.find("sharegpt_nothing_usable.json: no usable conversation among 4 entries"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("1 malformed"), std::string::npos) << message;
  EXPECT_NE(message.find("1 with fewer than 2 turns"), std::string::npos) << message;
  EXPECT_NE(message.find("1 without a human turn and a reply"), std::string::npos) << message;
  EXPECT_NE(message.find("1 under 4 words"), std::string::npos) << message;
}

}  // namespace
