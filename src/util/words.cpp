#include "bench/util/words.hpp"

namespace bench::util {
bool is_word_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::int64_t count_words(std::string_view text) {
  std::int64_t words = 0;
  bool in_word = false;
  for (char c : text) {
    if (is_word_separator(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  return words;
}

}  // namespace bench::util
