#include "random_text.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "bench/util/splitmix64.hpp"

namespace bench::workload::detail {
namespace {

// Common lowercase English words, each a single token (with its leading space) in the GPT,
// Llama and Qwen tokenizers, so a prompt's token count stays close to its word count.
constexpr std::array<std::string_view, 280> kWords = {
    "the",       "of",        "and",    "to",      "in",      "is",       "it",     "that",
    "was",       "for",       "on",     "are",     "with",    "as",       "be",     "at",
    "by",        "this",      "have",   "from",    "or",      "one",      "had",    "not",
    "but",       "what",      "all",    "were",    "when",    "we",       "there",  "can",
    "an",        "your",      "which",  "their",   "said",    "if",       "do",     "will",
    "each",      "about",     "how",    "up",      "out",     "them",     "then",   "she",
    "many",      "some",      "so",     "these",   "would",   "other",    "into",   "has",
    "more",      "her",       "two",    "like",    "him",     "see",      "time",   "could",
    "no",        "make",      "than",   "first",   "been",    "its",      "who",    "now",
    "people",    "my",        "made",   "over",    "did",     "down",     "only",   "way",
    "find",      "use",       "may",    "water",   "long",    "little",   "very",   "after",
    "words",     "called",    "just",   "where",   "most",    "know",     "get",    "through",
    "back",      "much",      "before", "go",      "good",    "new",      "write",  "our",
    "used",      "me",        "man",    "too",     "any",     "day",      "same",   "right",
    "look",      "think",     "also",   "around",  "another", "came",     "come",   "work",
    "three",     "word",      "must",   "because", "does",    "part",     "even",   "place",
    "well",      "such",      "here",   "take",    "why",     "things",   "help",   "put",
    "years",     "different", "away",   "again",   "off",     "went",     "old",    "number",
    "great",     "tell",      "men",    "say",     "small",   "every",    "found",  "still",
    "between",   "name",      "should", "home",    "big",     "give",     "air",    "line",
    "set",       "own",       "under",  "read",    "last",    "never",    "us",     "left",
    "end",       "along",     "while",  "might",   "next",    "sound",    "below",  "saw",
    "something", "thought",   "both",   "few",     "those",   "always",   "show",   "large",
    "often",     "together",  "asked",  "house",   "world",   "going",    "want",   "school",
    "important", "until",     "form",   "food",    "keep",    "children", "feet",   "land",
    "side",      "without",   "boy",    "once",    "life",    "enough",   "took",   "four",
    "head",      "above",     "kind",   "began",   "almost",  "live",     "page",   "got",
    "earth",     "need",      "far",    "hand",    "high",    "year",     "mother", "light",
    "country",   "father",    "let",    "night",   "picture", "being",    "study",  "second",
    "eyes",      "soon",      "times",  "story",   "since",   "white",    "days",   "ever",
    "paper",     "hard",      "near",   "better",  "best",    "across",   "during", "today",
    "others",    "however",   "sure",   "means",   "knew",    "try",      "told",   "young",
    "sun",       "ways",      "thing",  "whole",   "hear",    "example",  "heard",  "several",
    "change",    "answer",    "room",   "sea",     "against", "top",      "turned", "learn",
    "point",     "city",      "play",   "five",    "using",   "himself",  "red",    "open",
};

}  // namespace

std::uint64_t draw_below(DrawEngine& engine, std::uint64_t bound) {
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t raw = engine();
    if (raw >= threshold) return raw % bound;
  }
}

std::int64_t draw_between(DrawEngine& engine, std::int64_t low, std::int64_t high) {
  const auto span = static_cast<std::uint64_t>(high - low) + 1;
  return low + static_cast<std::int64_t>(draw_below(engine, span));
}

void append_random_words(DrawEngine& engine, std::int64_t count, std::string& out) {
  for (std::int64_t word = 0; word < count; ++word) {
    out += ' ';
    out += kWords[draw_below(engine, kWords.size())];
  }
}

// Each word of the key goes through SplitMix64's finaliser in turn, so engines of nearby seeds,
// streams or indices start from unrelated states.
DrawEngine engine_for(std::uint64_t seed, std::uint64_t stream) {
  return DrawEngine(util::splitmix64_mix(util::splitmix64_mix(seed) ^ stream));
}

DrawEngine engine_for(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return DrawEngine(
      util::splitmix64_mix(util::splitmix64_mix(util::splitmix64_mix(seed) ^ stream) ^ index));
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
  if (stream == 0) return seed;
  return util::splitmix64_mix(seed ^ (stream * util::kGoldenGamma));
}

}  // namespace bench::workload::detail
