#pragma once
// Whether one answer to a known-answer prompt (known_answers.hpp) looks like a model's work:
// text present, valid UTF-8, not degenerate (one word or one character repeated, very few
// distinct words, replacement characters), and the expected words in order. Pure: no network,
// no clock; the answer check (app/answer_probe.cpp) feeds it what the server streamed.
#include <string>
#include <string_view>
#include <vector>

#include "bench/answer_check/known_answers.hpp"

namespace bench::answer_check {

/// What the server streamed for the prompt.
struct Answer {
  std::string_view content;    // the answer (delta.content, or a completion's text)
  std::string_view reasoning;  // delta.reasoning_content / reasoning; empty for most models
  bool cut_by_length = false;  // finish_reason "length": max_tokens ended it
};

struct Verdict {
  bool plausible = false;
  std::vector<std::string> problems;  // why not, one short phrase each; empty when plausible
};

/// Judges `answer` (content and reasoning together) against `prompt`'s expectation. A reasoning
/// model cut off before answering is held to its topic words instead of the expected ones.
Verdict judge_answer(const KnownAnswerPrompt& prompt, const Answer& answer);

/// Up to `max_chars` characters of `text` for a one-line report: whitespace runs and control
/// characters become one space, bytes that are not UTF-8 become U+FFFD, "..." marks a cut.
std::string answer_excerpt(std::string_view text, std::size_t max_chars = 80);

}  // namespace bench::answer_check
