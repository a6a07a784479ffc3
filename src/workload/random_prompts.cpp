#include "bench/workload/random_prompts.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench::workload {
namespace {

// Common lowercase English words, each a single token (with its leading space) in the GPT,
// Llama and Qwen tokenizers, so a prompt's token count stays close to its word count.
constexpr std::array<std::string_view, 280> kWords = {
    "the",      "of",       "and",     "to",      "in",       "is",      "it",      "that",
    "was",      "for",      "on",      "are",     "with",     "as",      "be",      "at",
    "by",       "this",     "have",    "from",    "or",       "one",     "had",     "not",
    "but",      "what",     "all",     "were",    "when",     "we",      "there",   "can",
    "an",       "your",     "which",   "their",   "said",     "if",      "do",      "will",
    "each",     "about",    "how",     "up",      "out",      "them",    "then",    "she",
    "many",     "some",     "so",      "these",   "would",    "other",   "into",    "has",
    "more",     "her",      "two",     "like",    "him",      "see",     "time",    "could",
    "no",       "make",     "than",    "first",   "been",     "its",     "who",     "now",
    "people",   "my",       "made",    "over",    "did",      "down",    "only",    "way",
    "find",     "use",      "may",     "water",   "long",     "little",  "very",    "after",
    "words",    "called",   "just",    "where",   "most",     "know",    "get",     "through",
    "back",     "much",     "before",  "go",      "good",     "new",     "write",   "our",
    "used",     "me",       "man",     "too",     "any",      "day",     "same",    "right",
    "look",     "think",    "also",    "around",  "another",  "came",    "come",    "work",
    "three",    "word",     "must",    "because", "does",     "part",    "even",    "place",
    "well",     "such",     "here",    "take",    "why",      "things",  "help",    "put",
    "years",    "different", "away",   "again",   "off",      "went",    "old",     "number",
    "great",    "tell",     "men",     "say",     "small",    "every",   "found",   "still",
    "between",  "name",     "should",  "home",    "big",      "give",    "air",     "line",
    "set",      "own",      "under",   "read",    "last",     "never",   "us",      "left",
    "end",      "along",    "while",   "might",   "next",     "sound",   "below",   "saw",
    "something", "thought", "both",    "few",     "those",    "always",  "show",    "large",
    "often",    "together", "asked",   "house",   "world",    "going",   "want",    "school",
    "important", "until",   "form",    "food",    "keep",     "children", "feet",   "land",
    "side",     "without",  "boy",     "once",    "life",     "enough",  "took",    "four",
    "head",     "above",    "kind",    "began",   "almost",   "live",    "page",    "got",
    "earth",    "need",     "far",     "hand",    "high",     "year",    "mother",  "light",
    "country",  "father",   "let",     "night",   "picture",  "being",   "study",   "second",
    "eyes",     "soon",     "times",   "story",   "since",    "white",   "days",    "ever",
    "paper",    "hard",     "near",    "better",  "best",     "across",  "during",  "today",
    "others",   "however",  "sure",    "means",   "knew",     "try",     "told",    "young",
    "sun",      "ways",     "thing",   "whole",   "hear",     "example", "heard",   "several",
    "change",   "answer",   "room",    "sea",     "against",  "top",     "turned",  "learn",
    "point",    "city",     "play",    "five",    "using",    "himself", "red",     "open",
};

// A uniform draw from [0, bound) using only the engine's raw output, which the standard fixes
// bit for bit for std::mt19937_64. std::uniform_int_distribution's algorithm is left to each
// standard library, so it would give different prompts with libstdc++ and libc++. Draws below
// 2^64 mod bound are rejected so every value is equally likely.
std::uint64_t draw_below(std::mt19937_64& engine, std::uint64_t bound) {
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t raw = engine();
    if (raw >= threshold) return raw % bound;
  }
}

void require_at_least(std::string_view field, std::int64_t value, std::int64_t minimum) {
  if (value < minimum) {
    throw std::invalid_argument("random prompts: " + std::string(field) + " must be at least " +
                                std::to_string(minimum) + ", got " + std::to_string(value));
  }
}

}  // namespace

std::vector<Prompt> make_random_prompts(const RandomPromptOptions& options) {
  require_at_least("count", options.count, 0);
  require_at_least("input_len", options.input_len, 1);
  require_at_least("output_len", options.output_len, 1);

  std::mt19937_64 engine(options.seed);
  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(options.count));
  for (std::int64_t index = 0; index < options.count; ++index) {
    Prompt prompt;
    prompt.input_len = options.input_len;
    prompt.output_len = options.output_len;
    // The first word is the prompt's own number, so no two prompts share a cacheable prefix.
    prompt.text = std::to_string(index);
    for (std::int64_t word = 1; word < options.input_len; ++word) {
      prompt.text += ' ';
      prompt.text += kWords[draw_below(engine, kWords.size())];
    }
    prompts.push_back(std::move(prompt));
  }
  return prompts;
}

}  // namespace bench::workload
