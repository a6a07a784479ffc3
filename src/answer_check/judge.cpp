#include "bench/answer_check/judge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "bench/util/utf8.hpp"

namespace bench::answer_check {

namespace {

// Below these sizes a repeat proves nothing ("1, 2" has few words, all distinct or not).
constexpr std::size_t kMinWordsForRepeat = 6;
constexpr std::size_t kMinWordsForVariety = 20;
constexpr std::size_t kMinCharsForRepeat = 16;
// One word (or character) making half of the text is a loop, not an answer; so is a text of
// which fewer than a quarter of the words are distinct.
constexpr double kRepeatShare = 0.5;
constexpr double kMinDistinctShare = 0.25;
// A few U+FFFD are a byte-level tokenizer's split characters; more, a decoder's mismatch.
constexpr std::size_t kMaxReplacementChars = 2;

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

bool is_ascii_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_ascii_punct(unsigned char c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}
bool is_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

// Words: runs of bytes that are neither ASCII whitespace, punctuation nor control, ASCII
// letters lowered ("**A**," -> "a"). Bytes of other characters are word bytes.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (is_ascii_space(byte) || is_ascii_punct(byte) || is_control(byte)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    word.push_back(byte >= 'A' && byte <= 'Z' ? static_cast<char>(byte - 'A' + 'a') : c);
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// The characters of `text` (whole UTF-8 sequences), whitespace, punctuation and controls left
// out; nullopt at the first byte that is not UTF-8, whose offset goes to `bad_at`.
std::optional<std::vector<std::string_view>> characters_of(std::string_view text,
                                                           std::size_t& bad_at) {
  std::vector<std::string_view> characters;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if (!is_ascii_space(byte) && !is_ascii_punct(byte) && !is_control(byte)) {
        characters.push_back(text.substr(i, 1));
      }
      ++i;
      continue;
    }
    const std::size_t length = util::utf8_sequence_length(text, i);
    if (length == 0) {
      bad_at = i;
      return std::nullopt;
    }
    characters.push_back(text.substr(i, length));
    i += length;
  }
  return characters;
}

bool matches(std::string_view word, std::string_view spellings) {
  while (!spellings.empty()) {
    const std::size_t bar = spellings.find('|');
    if (spellings.substr(0, bar) == word) return true;
    if (bar == std::string_view::npos) break;
    spellings.remove_prefix(bar + 1);
  }
  return false;
}

// The first expected word not found after the ones before it; nullopt when all are, in order.
std::optional<std::string_view> first_missing(const std::vector<std::string>& words,
                                              std::span<const std::string_view> expected) {
  std::size_t next = 0;
  for (const std::string& word : words) {
    if (next < expected.size() && matches(word, expected[next])) ++next;
  }
  if (next == expected.size()) return std::nullopt;
  return expected[next].substr(0, expected[next].find('|'));
}

template <typename Item>
std::pair<Item, std::size_t> most_common(const std::vector<Item>& items) {
  std::map<Item, std::size_t> counts;
  for (const Item& item : items) ++counts[item];
  const auto top = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  return {top->first, top->second};
}

void check_repeats(const std::vector<std::string>& words,
                   const std::vector<std::string_view>& characters,
                   std::vector<std::string>& problems) {
  if (words.size() >= kMinWordsForRepeat) {
    const auto [word, count] = most_common(words);
    if (static_cast<double>(count) >= kRepeatShare * static_cast<double>(words.size())) {
      problems.push_back(fmt::format("one word repeated ('{}' is {} of {} words)",
                                     answer_excerpt(word, 20), count, words.size()));
      return;
    }
  }
  if (words.size() >= kMinWordsForVariety) {
    std::vector<std::string> distinct = words;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (static_cast<double>(distinct.size()) <
        kMinDistinctShare * static_cast<double>(words.size())) {
      problems.push_back(
          fmt::format("few distinct words ({} of {})", distinct.size(), words.size()));
      return;
    }
  }
  if (characters.size() >= kMinCharsForRepeat) {
    const auto [character, count] = most_common(characters);
    if (static_cast<double>(count) >= kRepeatShare * static_cast<double>(characters.size())) {
      problems.push_back(fmt::format("one character repeated ('{}' is {} of {} characters)",
                                     answer_excerpt(character, 4), count, characters.size()));
    }
  }
}

void check_expected(const KnownAnswerPrompt& prompt, const Answer& answer,
                    const std::vector<std::string>& words, std::vector<std::string>& problems) {
  const std::optional<std::string_view> missing = first_missing(words, prompt.expected);
  if (!missing) return;
  // A reasoning model stopped by max_tokens before its answer: its thinking need only be about
  // the question.
  const bool still_thinking =
      answer.cut_by_length && words_of(answer.content).empty() && !answer.reasoning.empty();
  if (still_thinking) {
    for (const std::string& word : words) {
      for (const std::string_view topic : prompt.topic) {
        if (word == topic) return;
      }
    }
    problems.push_back(fmt::format(
        "no answer within max_tokens, and the reasoning never mentions the question's topic"));
    return;
  }
  problems.push_back(
      fmt::format("expected {} ('{}' not found in order)", prompt.expected_label, *missing));
}

}  // namespace

Verdict judge_answer(const KnownAnswerPrompt& prompt, const Answer& answer) {
  Verdict verdict;
  std::string text(answer.reasoning);
  if (!text.empty() && !answer.content.empty()) text += '\n';
  text += answer.content;
  std::vector<std::string>& problems = verdict.problems;
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return is_ascii_space(static_cast<unsigned char>(c)); })) {
    problems.emplace_back(answer.cut_by_length ? "no text (max_tokens reached without any)"
                                               : "no text");
    return verdict;
  }
  std::size_t bad_at = 0;
  const std::optional<std::vector<std::string_view>> characters = characters_of(text, bad_at);
  if (!characters) {
    problems.push_back(fmt::format("not valid UTF-8 (byte {} of {})", bad_at, text.size()));
    return verdict;
  }
  std::size_t replacements = 0;
  for (std::size_t at = text.find(kReplacement); at != std::string::npos;
       at = text.find(kReplacement, at + kReplacement.size())) {
    ++replacements;
  }
  if (replacements > kMaxReplacementChars) {
    problems.push_back(fmt::format(
        "{} replacement characters (U+FFFD): bytes that decode to no character", replacements));
  }
  const std::vector<std::string> words = words_of(text);
  if (words.empty()) {
    problems.emplace_back("no words, only punctuation or symbols");
    return verdict;
  }
  check_repeats(words, *characters, problems);
  check_expected(prompt, answer, words, problems);
  verdict.plausible = problems.empty();
  return verdict;
}

std::string answer_excerpt(std::string_view text, std::size_t max_chars) {
  std::string excerpt;
  std::size_t chars = 0;
  bool pending_space = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    std::string_view character;
    if (byte < 0x80) {
      if (is_ascii_space(byte) || is_control(byte)) {
        pending_space = !excerpt.empty();
        ++i;
        continue;
      }
      character = text.substr(i, 1);
    } else {
      length = util::utf8_sequence_length(text, i);
      character = length == 0 ? kReplacement : text.substr(i, length);
      length = std::max<std::size_t>(length, 1);
    }
    if (chars + (pending_space ? 1 : 0) >= max_chars) {
      excerpt += "...";
      return excerpt;
    }
    if (pending_space) {
      excerpt += ' ';
      ++chars;
      pending_space = false;
    }
    excerpt += character;
    ++chars;
    i += length;
  }
  return excerpt;
}

}  // namespace bench::answer_check
