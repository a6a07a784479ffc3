// The answer check's judge, one answer at a time: what a working model says passes, what a
// random-weight model, a looping server or an empty one says does not, and each says why.
#include "bench/answer_check/judge.hpp"

#include <gtest/gtest.h>

namespace bench::answer_check {
namespace {

const KnownAnswerPrompt& chat_prompt(std::string_view id) {
  for (const KnownAnswerPrompt& prompt : known_answer_prompts(true)) {
    if (prompt.id == id) return prompt;
  }
  throw std::logic_error("no chat prompt " + std::string(id));
}

const KnownAnswerPrompt& completion_prompt(std::string_view id) {
  for (const KnownAnswerPrompt& prompt : known_answer_prompts(false)) {
    if (prompt.id == id) return prompt;
  }
  throw std::logic_error("no completions prompt " + std::string(id));
}

Verdict judge_content(const KnownAnswerPrompt& prompt, std::string_view content) {
  return judge_answer(prompt, Answer{content, {}, false});
}

std::string problems_of(const Verdict& verdict) {
  std::string all;
  for (const std::string& problem : verdict.problems) all += problem + "; ";
  return all;
}

TEST(JudgeAnswer, AcceptsCountingAsDigitsWordsOrLines) {
  const KnownAnswerPrompt& count = chat_prompt("count_to_10");
  for (std::string_view answer :
       {"1, 2, 3, 4, 5, 6, 7, 8, 9, 10", "Sure! Here you go:\n\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
        "One, two, three, four, five, six, seven, eight, nine, ten.",
        "1. 2. 3. 4. 5. 6. 7. 8. 9. 10. Done!"}) {
    const Verdict verdict = judge_content(count, answer);
    EXPECT_TRUE(verdict.plausible) << answer << ": " << problems_of(verdict);
  }
}

TEST(JudgeAnswer, AcceptsTheOtherChatAnswersInTheirUsualShapes) {
  EXPECT_TRUE(judge_content(chat_prompt("capital_of_france"), "Paris").plausible);
  EXPECT_TRUE(judge_content(chat_prompt("capital_of_france"), "The capital of France is **Paris**.")
                  .plausible);
  EXPECT_TRUE(judge_content(chat_prompt("first_letters"),
                            "The first five letters of the English alphabet are: A, B, C, D, E.")
                  .plausible);
}

TEST(JudgeAnswer, AcceptsABaseModelsContinuations) {
  EXPECT_TRUE(
      judge_content(completion_prompt("count_on"), " 6, 7, 8, 9, 10, 11, 12, 13, 14").plausible);
  EXPECT_TRUE(
      judge_content(completion_prompt("capital_of_france"), " Paris. It is also the").plausible);
  EXPECT_TRUE(judge_content(completion_prompt("letters_on"), " F, G, H, I, J, K, L").plausible);
}

TEST(JudgeAnswer, RefusesRandomWordsNamingTheExpectedAnswer) {
  const Verdict verdict = judge_content(
      chat_prompt("count_to_10"),
      " the model token of stream and batch to cache a GPU in is decode for layer with each");
  EXPECT_FALSE(verdict.plausible);
  ASSERT_EQ(verdict.problems.size(), 1u);
  EXPECT_NE(verdict.problems[0].find("the numbers 1 to 10 in order"), std::string::npos)
      << verdict.problems[0];
  EXPECT_NE(verdict.problems[0].find("'1' not found"), std::string::npos) << verdict.problems[0];
}

TEST(JudgeAnswer, RefusesNumbersOutOfOrder) {
  const Verdict verdict = judge_content(chat_prompt("count_to_10"), "10 9 8 7 6 5 4 3 2 1");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_NE(problems_of(verdict).find("'2' not found"), std::string::npos) << problems_of(verdict);
}

TEST(JudgeAnswer, RefusesOneWordRepeated) {
  const Verdict verdict =
      judge_content(chat_prompt("capital_of_france"), "Paris Paris Paris Paris Paris Paris Paris");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_NE(problems_of(verdict).find("one word repeated ('paris' is 7 of 7 words)"),
            std::string::npos)
      << problems_of(verdict);
}

TEST(JudgeAnswer, RefusesAFewWordsLooping) {
  std::string loop;
  for (int i = 0; i < 10; ++i) loop += "alpha beta gamma ";
  const Verdict verdict = judge_content(chat_prompt("count_to_10"), loop);
  EXPECT_FALSE(verdict.plausible);
  EXPECT_NE(problems_of(verdict).find("few distinct words (3 of 30)"), std::string::npos)
      << problems_of(verdict);
}

TEST(JudgeAnswer, RefusesOneCharacterRepeatedWithoutSpaces) {
  const Verdict verdict = judge_content(
      chat_prompt("capital_of_france"),
      "\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A"
      "\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84"
      "\xE7\x9A\x84Paris");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_NE(problems_of(verdict).find("one character repeated"), std::string::npos)
      << problems_of(verdict);
}

TEST(JudgeAnswer, RefusesNoTextAndWhitespaceAlone) {
  for (std::string_view empty : {"", " \n\t "}) {
    const Verdict verdict = judge_content(chat_prompt("count_to_10"), empty);
    EXPECT_FALSE(verdict.plausible);
    EXPECT_EQ(problems_of(verdict), "no text; ");
  }
  const Verdict cut = judge_answer(chat_prompt("count_to_10"), Answer{"", "", true});
  EXPECT_EQ(problems_of(cut), "no text (max_tokens reached without any); ");
}

TEST(JudgeAnswer, RefusesPunctuationAlone) {
  const Verdict verdict = judge_content(chat_prompt("count_to_10"), "!!!!!!!!!!!!!!!!!!!!!!!!");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_EQ(problems_of(verdict), "no words, only punctuation or symbols; ");
}

TEST(JudgeAnswer, RefusesBytesThatAreNotUtf8) {
  const Verdict verdict = judge_content(chat_prompt("capital_of_france"), "Par\xFF\xFEis");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_EQ(problems_of(verdict), "not valid UTF-8 (byte 3 of 7); ");
}

TEST(JudgeAnswer, RefusesReplacementCharactersBeyondAFew) {
  const KnownAnswerPrompt& capital = chat_prompt("capital_of_france");
  EXPECT_TRUE(judge_content(capital, "Paris \xEF\xBF\xBD").plausible);
  const Verdict verdict =
      judge_content(capital, "Paris \xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD x \xEF\xBF\xBD");
  EXPECT_FALSE(verdict.plausible);
  EXPECT_NE(problems_of(verdict).find("4 replacement characters"), std::string::npos)
      << problems_of(verdict);
}

TEST(JudgeAnswer, JudgesReasoningAndContentTogether) {
  const KnownAnswerPrompt& count = chat_prompt("count_to_10");
  const Verdict verdict = judge_answer(
      count, Answer{"1, 2, 3, 4, 5, 6, 7, 8, 9, 10", "The user wants me to count. Easy.", false});
  EXPECT_TRUE(verdict.plausible) << problems_of(verdict);
}

TEST(JudgeAnswer, HoldsAReasoningModelCutOffWhileThinkingToItsTopic) {
  const KnownAnswerPrompt& capital = chat_prompt("capital_of_france");
  const Verdict thinking = judge_answer(
      capital, Answer{"", "Okay, the user asks which city is the capital of France. I", true});
  EXPECT_TRUE(thinking.plausible) << problems_of(thinking);
  const Verdict garbage = judge_answer(
      capital, Answer{"", "the model token of stream and batch to cache a GPU in is", true});
  EXPECT_FALSE(garbage.plausible);
  EXPECT_NE(problems_of(garbage).find("never mentions the question's topic"), std::string::npos)
      << problems_of(garbage);
  // Not cut off: the answer is owed, and the topic alone is not one.
  const Verdict finished = judge_answer(
      capital, Answer{"", "Okay, the user asks which city is the capital of France.", false});
  EXPECT_FALSE(finished.plausible);
}

TEST(AnswerExcerpt, FoldsWhitespaceAndControlsAndCutsOnCharacters) {
  EXPECT_EQ(answer_excerpt("  a\n\n b\tc\x01 d "), "a b c d");
  EXPECT_EQ(answer_excerpt("abcdef", 3), "abc...");
  EXPECT_EQ(answer_excerpt("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9...");
  EXPECT_EQ(answer_excerpt("a\xFF"
                           "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(answer_excerpt("abc", 3), "abc");
}

}  // namespace
}  // namespace bench::answer_check
