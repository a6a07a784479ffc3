// --prefix-share's prompts (workload/prefix_share.hpp), through open_prompt_source: each point's
// requests share one system prompt of round(S x input_len), their own text is the rest, each
// point and repeat has a system prompt of its own, and the priming request carries it.
#include "bench/workload/prefix_share.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "bench/workload/conversation.hpp"
#include "bench/workload/multi_turn.hpp"
#include "letter_tokenizer.hpp"
#include "text_helpers.hpp"

namespace prefix_share_test {

using bench::testing::words_of;
using bench::workload::DatasetOptions;
using bench::workload::kPrimeRequest;
using bench::workload::open_prompt_source;
using bench::workload::Prompt;
using bench::workload::prompt_index;

DatasetOptions shares(std::vector<double> list) {
  DatasetOptions options;
  options.input_len = 200;
  options.output_len = 8;
  options.seed = 5;
  options.prefix_shares = std::move(list);
  return options;
}

std::int64_t words(const std::string& text) {
  return static_cast<std::int64_t>(words_of(text).size());
}

TEST(PrefixShare, EachPointsRequestsShareOneSystemPromptOfItsShareAndTheRestIsTheirOwn) {
  const auto source = open_prompt_source(shares({0, 0.25, 0.9}));
  EXPECT_TRUE(source->shares_prefixes());
  const std::int64_t expected_len[] = {0, 50, 180};
  for (std::uint64_t point = 0; point < 3; ++point) {
    SCOPED_TRACE("point " + std::to_string(point));
    std::set<std::string> systems, texts;
    for (std::uint64_t request = 0; request < 20; ++request) {
      const Prompt prompt = source->prompt(prompt_index(point, request));
      EXPECT_EQ(words(prompt.system_text), expected_len[point]);
      EXPECT_EQ(prompt.system_len, expected_len[point]);
      EXPECT_EQ(words(prompt.text), 200 - expected_len[point]);
      EXPECT_EQ(prompt.input_len, 200);
      systems.insert(prompt.system_text);
      texts.insert(prompt.text);
    }
    EXPECT_EQ(systems.size(), 1u) << "one system prompt a point";
    EXPECT_EQ(texts.size(), 20u) << "every request's own text is new";
  }
}

TEST(PrefixShare, EveryPointAndRepeatHasASystemPromptOfItsOwnAndThePrimeCarriesIt) {
  // Three points, two repeats: streams 0-2, then 3-5 (repeat r of point p is stream p + 3r).
  const auto source = open_prompt_source(shares({0.5, 0.5, 0.5}));
  std::set<std::string> systems;
  for (std::uint64_t stream = 0; stream < 6; ++stream) {
    const Prompt first = source->prompt(prompt_index(stream, 0));
    const Prompt prime = source->prompt(prompt_index(stream, kPrimeRequest));
    EXPECT_EQ(prime.system_text, first.system_text);
    EXPECT_NE(prime.text, first.text);
    systems.insert(first.system_text);
  }
  EXPECT_EQ(systems.size(), 6u);
  // The same seed makes the same prompts, whatever was asked before.
  EXPECT_EQ(open_prompt_source(shares({0.5, 0.5, 0.5}))->prompt(prompt_index(4, 7)).system_text,
            source->prompt(prompt_index(4, 7)).system_text);
}

TEST(PrefixShare, AShareOfZeroSendsNoSystemPromptAndIsNotMeantToShare) {
  const auto source = open_prompt_source(shares({0}));
  EXPECT_FALSE(source->shares_prefixes());
  const Prompt prompt = source->prompt(prompt_index(0, 3));
  EXPECT_TRUE(prompt.system_text.empty());
  EXPECT_EQ(words(prompt.text), 200);
  // A single share serves every stream (a concurrency sweep's points, a search's probes).
  const auto half = open_prompt_source(shares({0.5}));
  EXPECT_EQ(half->prompt(prompt_index(7, 0)).system_len, 100);
}

TEST(PrefixShare, WithATokenizerTheSystemPromptAndTheRestAreTokens) {
  const workload_test::LetterTokenizer letters;
  const auto source = open_prompt_source(shares({0.5}), {&letters, 0});
  const Prompt prompt = source->prompt(prompt_index(0, 0));
  const auto system = static_cast<std::int64_t>(letters.encode(prompt.system_text).size());
  const auto own = static_cast<std::int64_t>(letters.encode(prompt.text).size());
  EXPECT_EQ(system, 100);
  // Made to 100 tokens exactly, or the nearest below when no word sequence reaches it
  // (token_prompts.hpp); client_tokens holds what was made, the two parts together.
  EXPECT_LE(own, 100);
  EXPECT_GE(own, 95);
  EXPECT_EQ(prompt.client_tokens, system + own);
  EXPECT_EQ(prompt.system_len, 100);
  EXPECT_EQ(prompt.input_len, 200);
}

TEST(PrefixShare, ASessionsFirstTurnCarriesTheSystemPromptAndItsLengthIsTheTextsAlone) {
  const auto source = open_prompt_source(shares({0.25}));
  const auto turns = bench::workload::session_turns(*source, 0, 1, 3, false);
  ASSERT_EQ(turns.size(), 3u);
  EXPECT_EQ(words(turns[0].system_text), 50);
  EXPECT_EQ(turns[0].input_len, 150);
  EXPECT_TRUE(turns[1].system_text.empty());
  EXPECT_TRUE(turns[2].system_text.empty());
}

TEST(PrefixShare, ASessionSendsItsSystemPromptFirstOnEveryTurn) {
  bench::workload::Conversation history;
  history.add_system("you are terse");
  history.add_user("list the files");
  history.add_reply("a b");
  history.add_user("and now");
  const nlohmann::json messages = history.chat_messages();
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[0], (nlohmann::json{{"role", "system"}, {"content", "you are terse"}}));
  EXPECT_EQ(messages[1]["role"], "user");
  // Completions: the system prompt, a blank line, then the turns, as completion_prompt joins.
  EXPECT_EQ(history.transcript(), "you are terse\n\nlist the filesa b\n\nand now");
  EXPECT_EQ(history.words(), 3 + 3 + 2 + 2);
  EXPECT_EQ(history.user_turns(), 2u);
}

}  // namespace prefix_share_test
