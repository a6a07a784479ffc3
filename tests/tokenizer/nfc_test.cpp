#include "bench/tokenizer/nfc.hpp"

#include <gtest/gtest.h>

namespace {

using bench::tokenizer::to_nfc;

TEST(Nfc, composes_a_letter_and_its_combining_mark) {
  EXPECT_EQ(to_nfc("cafe\u0301"), "caf\u00E9");
  EXPECT_EQ(to_nfc("A\u030A"), "\u00C5");
}

TEST(Nfc, orders_marks_by_combining_class_before_composing) {
  // dot below (220) sorts before grave (230) whichever was written first
  EXPECT_EQ(to_nfc("a\u0300\u0323"), to_nfc("a\u0323\u0300"));
  EXPECT_EQ(to_nfc("a\u0323\u0300"), "\u1EA1\u0300");
}

TEST(Nfc, composes_hangul_jamo_into_a_syllable) {
  EXPECT_EQ(to_nfc("\u1100\u1161\u11A8"), "\uAC01");
}

TEST(Nfc, maps_singletons_and_leaves_exclusions_decomposed) {
  EXPECT_EQ(to_nfc("\u212B"), "\u00C5");        // ANGSTROM SIGN
  EXPECT_EQ(to_nfc("\u0958"), "\u0915\u093C");  // composition exclusion
}

TEST(Nfc, leaves_text_already_in_nfc_as_it_is) {
  const std::string text = "Hello, \u00E9t\u00E9 \u6F22\u5B57 \U0001F600 \uAC01";
  EXPECT_EQ(to_nfc(text), text);
}

}  // namespace
