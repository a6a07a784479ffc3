// The word rule shared by the client's prompt lengths and the embedded server's prompt tokens.
#include "bench/util/words.hpp"

#include <gtest/gtest.h>

namespace {

using bench::util::count_words;

TEST(CountWords, CountsRunsOfCharactersBetweenAsciiWhitespace) {
  EXPECT_EQ(count_words(""), 0);
  EXPECT_EQ(count_words("   \t\n"), 0);
  EXPECT_EQ(count_words("one"), 1);
  EXPECT_EQ(count_words("  one two\tthree\nfour  "), 4);
  EXPECT_EQ(count_words("  one two\tthree\nfour\r\nfive\f six\v seven  "), 7);
  EXPECT_EQ(count_words("¿Qué tal?"), 2);  // UTF-8 bytes are word bytes
}

}  // namespace
