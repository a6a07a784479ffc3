#include "bench/answer_check/known_answers.hpp"

#include <array>

namespace bench::answer_check {

namespace {

constexpr std::array<std::string_view, 10> kOneToTen = {"1|one",  "2|two", "3|three", "4|four",
                                                        "5|five", "6|six", "7|seven", "8|eight",
                                                        "9|nine", "10|ten"};
constexpr std::array<std::string_view, 4> kCountTopic = {"count", "counting", "number", "numbers"};
constexpr std::array<std::string_view, 1> kParis = {"paris"};
constexpr std::array<std::string_view, 3> kCapitalTopic = {"paris", "france", "capital"};
constexpr std::array<std::string_view, 5> kAToE = {"a", "b", "c", "d", "e"};
constexpr std::array<std::string_view, 3> kAlphabetTopic = {"alphabet", "letters", "letter"};
constexpr std::array<std::string_view, 3> kFToH = {"f", "g", "h"};

// Chat: instructions an instruction-tuned model follows at temperature 0. max_tokens leaves a
// reasoning model room to think a little and still answer; a plain model stops far sooner.
constexpr std::array<KnownAnswerPrompt, 3> kChat = {{
    {"count_to_10", "Count from 1 to 10.", kOneToTen, "the numbers 1 to 10 in order", kCountTopic,
     128, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"},
    {"capital_of_france", "What is the capital of France? Answer in one word.", kParis, "Paris",
     kCapitalTopic, 128, "Paris."},
    {"first_letters", "Write the first five letters of the English alphabet.", kAToE,
     "the letters A to E in order", kAlphabetTopic, 128, "A, B, C, D, E"},
}};

// Completions: text a base model continues (it stops only at max_tokens, so these are short).
constexpr std::array<KnownAnswerPrompt, 3> kCompletions = {{
    {"count_on", "1, 2, 3, 4, 5,", std::span(kOneToTen).subspan(5), "the numbers 6 to 10 in order",
     kCountTopic, 32, " 6, 7, 8, 9, 10"},
    {"capital_of_france", "The capital of France is", kParis, "Paris", kCapitalTopic, 24,
     " Paris."},
    {"letters_on", "A, B, C, D, E,", kFToH, "the letters F to H in order", kAlphabetTopic, 24,
     " F, G, H, I, J"},
}};

}  // namespace

std::span<const KnownAnswerPrompt> known_answer_prompts(bool chat) {
  if (chat) return kChat;
  return kCompletions;
}

const KnownAnswerPrompt* find_known_answer_prompt(std::string_view prompt, bool chat) {
  for (const KnownAnswerPrompt& known : known_answer_prompts(chat)) {
    if (known.prompt == prompt) return &known;
  }
  return nullptr;
}

}  // namespace bench::answer_check
