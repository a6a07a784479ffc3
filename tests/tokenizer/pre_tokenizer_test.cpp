#include "bench/tokenizer/pre_tokenizer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace {

using bench::tokenizer::make_pre_tokenizer;
using bench::tokenizer::Piece;
using nlohmann::json;

std::vector<std::string> split(const json& config, std::string text, bool starts_text = true) {
  std::vector<Piece> pieces{{std::move(text), starts_text}};
  make_pre_tokenizer(config)->split(pieces);
  std::vector<std::string> out;
  for (auto& piece : pieces) out.push_back(piece.text);
  return out;
}

json split_on(const std::string& behavior) {
  return {
      {"type", "Split"}, {"pattern", {{"String", "-"}}}, {"behavior", behavior}, {"invert", false}};
}

using Pieces = std::vector<std::string>;

TEST(PreTokenizer, splits_on_a_string_with_each_delimiter_behavior) {
  EXPECT_EQ(split(split_on("Isolated"), "a-b--c"), (Pieces{"a", "-", "b", "-", "-", "c"}));
  EXPECT_EQ(split(split_on("Removed"), "a-b--c"), (Pieces{"a", "b", "c"}));
  EXPECT_EQ(split(split_on("MergedWithPrevious"), "a-b--c"), (Pieces{"a-", "b-", "-", "c"}));
  EXPECT_EQ(split(split_on("MergedWithNext"), "a-b--c"), (Pieces{"a", "-b", "-", "-c"}));
  EXPECT_EQ(split(split_on("Contiguous"), "a-b--c"), (Pieces{"a", "-", "b", "--", "c"}));
}

TEST(PreTokenizer, splits_with_unicode_classes_and_lookahead) {
  const json llama3 = {
      {"type", "Split"},
      {"pattern",
       {{"Regex",
         R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"}}},
      {"behavior", "Isolated"},
      {"invert", false}};
  EXPECT_EQ(split(llama3, "Héllo  wörld's 12345!\n"),
            (Pieces{"Héllo", " ", " wörld", "'s", " ", "123", "45", "!\n"}));
}

TEST(PreTokenizer, writes_bytes_in_the_gpt2_alphabet_after_splitting) {
  const json byte_level = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
  EXPECT_EQ(split(byte_level, "Hi there"), (Pieces{"Hi", "\u0120there"}));
}

TEST(PreTokenizer, prepends_the_metaspace_marker_to_the_first_piece_of_the_text_only) {
  const json metaspace = {{"type", "Metaspace"},
                          {"replacement", "\u2581"},
                          {"prepend_scheme", "first"},
                          {"split", true}};
  EXPECT_EQ(split(metaspace, "Hi there"), (Pieces{"\u2581Hi", "\u2581there"}));
  EXPECT_EQ(split(metaspace, "Hi", false), (Pieces{"Hi"}));
}

TEST(PreTokenizer, refuses_a_type_it_does_not_know_naming_it) {
  try {
    make_pre_tokenizer({{"type", "BertPreTokenizer"}});
    FAIL() << "no error";
  } catch (const bench::tokenizer::TokenizerError& error) {
    EXPECT_STREQ(error.what(), "unsupported pre-tokenizer 'BertPreTokenizer'");
  }
}

}  // namespace
