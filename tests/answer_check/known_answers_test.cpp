// The known-answer prompts: the simulator's canned answers are ones the judge accepts, and each
// prompt is found by its exact text on its own endpoint only.
#include "bench/answer_check/known_answers.hpp"

#include <gtest/gtest.h>

#include "bench/answer_check/judge.hpp"

namespace bench::answer_check {
namespace {

TEST(KnownAnswers, EachEndpointHasAFewPromptsWithRoomToAnswer) {
  for (const bool chat : {true, false}) {
    const auto prompts = known_answer_prompts(chat);
    EXPECT_GE(prompts.size(), 2u);
    EXPECT_LE(prompts.size(), 4u);
    for (const KnownAnswerPrompt& prompt : prompts) {
      EXPECT_FALSE(prompt.expected.empty()) << prompt.id;
      EXPECT_FALSE(prompt.topic.empty()) << prompt.id;
      EXPECT_GE(prompt.max_tokens, 16) << prompt.id;
      EXPECT_LE(prompt.max_tokens, 128) << prompt.id;
    }
  }
}

TEST(KnownAnswers, TheSimulatorsCannedAnswersAreJudgedPlausible) {
  for (const bool chat : {true, false}) {
    for (const KnownAnswerPrompt& prompt : known_answer_prompts(chat)) {
      const Verdict verdict = judge_answer(prompt, Answer{prompt.canned_answer, {}, false});
      EXPECT_TRUE(verdict.plausible)
          << prompt.id << ": " << (verdict.problems.empty() ? "" : verdict.problems.front());
    }
  }
}

TEST(KnownAnswers, FindsAPromptByItsExactTextOnItsEndpoint) {
  const KnownAnswerPrompt* count = find_known_answer_prompt("Count from 1 to 10.", true);
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->id, "count_to_10");
  EXPECT_EQ(find_known_answer_prompt("Count from 1 to 10.", false), nullptr);
  EXPECT_EQ(find_known_answer_prompt("Count from 1 to 10. ", true), nullptr);
  const KnownAnswerPrompt* count_on = find_known_answer_prompt("1, 2, 3, 4, 5,", false);
  ASSERT_NE(count_on, nullptr);
  EXPECT_EQ(count_on->id, "count_on");
}

}  // namespace
}  // namespace bench::answer_check
