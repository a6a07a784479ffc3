#include "bench/util/words.hpp"

namespace bench::util {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::int64_t count_words(std::string_view text) {
  std::int64_t words = 0;
  bool in_word = false;
  for (char c : text) {
    if (is_space(c)) {
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      ++words;
    }
  }
  return words;
}

}  // namespace bench::util
