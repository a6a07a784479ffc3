#pragma once
// Test support: small questions about text the tests ask in several places.
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace bench::testing {

/// How many times `part` occurs in `text` (overlapping occurrences count).
inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

/// The whitespace-separated words of `text`.
inline std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace bench::testing
