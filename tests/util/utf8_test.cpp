#include "bench/util/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using bench::util::utf8_prefix;
using bench::util::utf8_sequence_length;

// `lead` followed by `continuation` bytes of `next` (what a lead byte's sequence needs, or more).
std::string lead_then(int lead, int next, int continuation) {
  std::string text(1, static_cast<char>(lead));
  text.append(static_cast<std::size_t>(continuation), static_cast<char>(next));
  return text;
}

// Every lead byte, followed by three bytes that continue any sequence it may start (Unicode's
// table 3-7: the second byte's range narrows after E0, ED, F0 and F4).
TEST(Utf8SequenceLength, gives_each_lead_byte_its_length_when_the_sequence_is_well_formed) {
  for (int lead = 0; lead < 0x100; ++lead) {
    const int second = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    std::string text = lead_then(lead, 0x80, 3);
    text[1] = static_cast<char>(second);
    std::size_t expected = 0;  // 80-BF continue a sequence, C0-C1 and F5-FF start none
    if (lead < 0x80) expected = 1;
    if (lead >= 0xC2 && lead <= 0xDF) expected = 2;
    if (lead >= 0xE0 && lead <= 0xEF) expected = 3;
    if (lead >= 0xF0 && lead <= 0xF4) expected = 4;
    EXPECT_EQ(utf8_sequence_length(text, 0), expected) << "lead byte " << lead;
  }
}

TEST(Utf8SequenceLength, is_one_for_every_ascii_byte_whatever_follows) {
  for (int byte = 0; byte < 0x80; ++byte) {
    EXPECT_EQ(utf8_sequence_length(lead_then(byte, 0xFF, 1), 0), 1u) << byte;
    EXPECT_EQ(utf8_sequence_length(std::string(1, static_cast<char>(byte)), 0), 1u) << byte;
  }
}

TEST(Utf8SequenceLength, is_zero_for_overlongs_surrogates_and_code_points_above_u10ffff) {
  EXPECT_EQ(utf8_sequence_length("\xC0\xAF", 0), 0u);          // overlong '/'
  EXPECT_EQ(utf8_sequence_length("\xC1\xBF", 0), 0u);          // overlong U+007F
  EXPECT_EQ(utf8_sequence_length("\xE0\x9F\xBF", 0), 0u);      // overlong U+07FF
  EXPECT_EQ(utf8_sequence_length("\xED\xA0\x80", 0), 0u);      // U+D800
  EXPECT_EQ(utf8_sequence_length("\xED\x9F\xBF", 0), 3u);      // U+D7FF, the last before
  EXPECT_EQ(utf8_sequence_length("\xF0\x8F\xBF\xBF", 0), 0u);  // overlong U+FFFF
  EXPECT_EQ(utf8_sequence_length("\xF4\x8F\xBF\xBF", 0), 4u);  // U+10FFFF
  EXPECT_EQ(utf8_sequence_length("\xF4\x90\x80\x80", 0), 0u);  // U+110000
  EXPECT_EQ(utf8_sequence_length("\xF5\x80\x80\x80", 0), 0u);  // no such lead byte
}

TEST(Utf8SequenceLength, is_zero_when_a_later_byte_does_not_continue_or_the_text_ends) {
  EXPECT_EQ(utf8_sequence_length("\xC3", 0), 0u);
  EXPECT_EQ(utf8_sequence_length("\xC3(", 0), 0u);
  EXPECT_EQ(utf8_sequence_length("\xE6\xBC", 0), 0u);
  EXPECT_EQ(utf8_sequence_length("\xE6\xBC\xC0", 0), 0u);
  EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x98", 0), 0u);
  EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x98"
                                 "a",
                                 0),
            0u);
}

TEST(Utf8SequenceLength, reads_the_sequence_at_the_index_given) {
  const std::string text = "a\u00E9\u6F22\U0001F600";
  EXPECT_EQ(utf8_sequence_length(text, 0), 1u);
  EXPECT_EQ(utf8_sequence_length(text, 1), 2u);
  EXPECT_EQ(utf8_sequence_length(text, 2), 0u);  // the middle of é
  EXPECT_EQ(utf8_sequence_length(text, 3), 3u);
  EXPECT_EQ(utf8_sequence_length(text, 6), 4u);
  EXPECT_EQ(utf8_sequence_length(text.substr(0, 9), 6), 0u);  // 😀 cut short
}

TEST(Utf8Prefix, counts_the_well_formed_bytes_of_a_sequence_cut_short) {
  const auto cut = utf8_prefix(
      "\xF0\x9F\x98"
      "a",
      0);
  EXPECT_EQ(cut.expected, 4u);
  EXPECT_EQ(cut.valid, 3u);
  const auto stray = utf8_prefix("\x80", 0);
  EXPECT_EQ(stray.expected, 1u);
  EXPECT_EQ(stray.valid, 0u);
}

}  // namespace
