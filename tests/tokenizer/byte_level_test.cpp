#include "bench/tokenizer/byte_level.hpp"

#include <gtest/gtest.h>

#include "bench/tokenizer/utf8.hpp"
#include "bench/util/utf8.hpp"

namespace {

using bench::tokenizer::byte_level_map;

TEST(ByteLevelMap, writes_space_and_newline_as_gpt2_does) {
  EXPECT_EQ(byte_level_map().encode(" a\n"), "\u0120a\u010A");  // "Ġa" "Ċ"
  EXPECT_EQ(byte_level_map().encode("!~"), "!~");
}

TEST(ByteLevelMap, maps_every_byte_to_a_distinct_character_and_back) {
  for (int byte = 0; byte < 256; ++byte) {
    const auto character = byte_level_map().character_of(static_cast<std::uint8_t>(byte));
    const auto length = bench::util::utf8_sequence_length(character, 0);
    ASSERT_EQ(length, character.size());
    const auto back =
        byte_level_map().byte_of(bench::tokenizer::utf8::decode_at(character, 0, length));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, byte);
  }
  EXPECT_FALSE(byte_level_map().byte_of(U'\u2581').has_value());
}

}  // namespace
