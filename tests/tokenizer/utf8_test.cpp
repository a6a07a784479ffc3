#include "bench/tokenizer/utf8.hpp"

#include <gtest/gtest.h>

#include "bench/util/utf8.hpp"

namespace {

using namespace bench::tokenizer;

TEST(Utf8, accepts_every_length_of_valid_sequence) {
  EXPECT_TRUE(utf8::is_valid("a\u00E9\u6F22\U0001F600"));
  EXPECT_EQ(bench::util::utf8_sequence_length("\U0001F600", 0), 4u);
}

TEST(Utf8, rejects_overlong_surrogate_and_out_of_range_sequences) {
  EXPECT_FALSE(utf8::is_valid("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(utf8::is_valid("\xED\xA0\x80"));      // U+D800
  EXPECT_FALSE(utf8::is_valid("\xF4\x90\x80\x80"));  // beyond U+10FFFF
  EXPECT_FALSE(utf8::is_valid("\xE6\xBC"));          // truncated
  EXPECT_FALSE(utf8::is_valid("\x80"));              // stray continuation
}

TEST(Utf8, repairs_each_maximal_invalid_subpart_with_one_replacement_character) {
  // from_utf8_lossy: "\xF0\x9F\x98" is one truncated sequence (one U+FFFD), "\xFF" another.
  EXPECT_EQ(utf8::to_valid("a\xF0\x9F\x98"
                           "b\xFF"
                           "c"),
            "a\uFFFD"
            "b\uFFFD"
            "c");
  EXPECT_EQ(utf8::to_valid("\xC0\xAF"), "\uFFFD\uFFFD");
}

TEST(Utf8, decodes_and_appends_code_points_of_every_length) {
  for (char32_t code_point : {U'a', U'\u00E9', U'\u6F22', U'\U0001F600'}) {
    std::string text;
    utf8::append(text, code_point);
    EXPECT_EQ(utf8::decode_at(text, 0, text.size()), code_point);
  }
}

}  // namespace
