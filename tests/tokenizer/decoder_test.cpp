#include "bench/tokenizer/decoder.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace {

using bench::tokenizer::make_decoder;
using nlohmann::json;

std::string decode(const json& config, std::vector<std::string> tokens) {
  make_decoder(config)->decode(tokens);
  std::string out;
  for (const auto& token : tokens) out += token;
  return out;
}

const json kSentencePiece = {
    {"type", "Sequence"},
    {"decoders",
     {{{"type", "Replace"}, {"pattern", {{"String", "\u2581"}}}, {"content", " "}},
      {{"type", "ByteFallback"}},
      {{"type", "Fuse"}},
      {{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}}}};

TEST(Decoder, turns_gpt2_characters_back_into_bytes) {
  EXPECT_EQ(decode({{"type", "ByteLevel"}}, {"Hello", "\u0120w\u00C3\u00A9", "\u010A"}),
            "Hello w\u00E9\n");
}

TEST(Decoder, keeps_a_token_outside_the_gpt2_alphabet_as_its_own_text) {
  EXPECT_EQ(decode({{"type", "ByteLevel"}}, {"<\uFF5CUser\uFF5C>", "\u0120hi"}),
            "<\uFF5CUser\uFF5C> hi");
}

TEST(Decoder, writes_sentencepiece_markers_as_spaces_and_strips_the_first) {
  EXPECT_EQ(decode(kSentencePiece, {"\u2581Hello", "\u2581world"}), "Hello world");
}

TEST(Decoder, joins_byte_tokens_into_their_character) {
  EXPECT_EQ(decode(kSentencePiece, {"\u2581caf", "<0xC3>", "<0xA9>"}), "caf\u00E9");
}

TEST(Decoder, writes_one_replacement_character_per_byte_of_an_invalid_run) {
  EXPECT_EQ(decode(kSentencePiece, {"\u2581a", "<0xC3>", "<0xFF>", "b"}), "a\uFFFD\uFFFDb");
}

TEST(Decoder, refuses_a_type_it_does_not_know_naming_it) {
  try {
    make_decoder({{"type", "WordPiece"}});
    FAIL() << "no error";
  } catch (const bench::tokenizer::TokenizerError& error) {
    EXPECT_STREQ(error.what(), "unsupported decoder 'WordPiece'");
  }
}

}  // namespace
