#include "bench/tokenizer/bpe_model.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using bench::tokenizer::BpeModel;
using bench::tokenizer::TokenId;
using nlohmann::json;

json model(json merges, json extra = json::object()) {
  json config = {{"type", "BPE"},
                 {"vocab",
                  {{"<unk>", 0},
                   {"a", 1},
                   {"b", 2},
                   {"c", 3},
                   {"ab", 4},
                   {"bc", 5},
                   {"aa", 6},
                   {"abc", 7},
                   {"<0xC3>", 8},
                   {"<0xA9>", 9}}},
                 {"merges", std::move(merges)}};
  config.update(extra);
  return config;
}

std::vector<TokenId> encode(const BpeModel& bpe, std::string_view piece) {
  std::vector<TokenId> ids;
  bpe.encode_piece(piece, ids);
  return ids;
}

TEST(BpeModel, merges_the_pair_of_lowest_rank_first) {
  EXPECT_EQ(encode(BpeModel(model({"b c", "a b"})), "abc"), (std::vector<TokenId>{1, 5}));
  EXPECT_EQ(encode(BpeModel(model({"a b", "b c"})), "abc"), (std::vector<TokenId>{4, 3}));
}

TEST(BpeModel, merges_the_leftmost_of_equal_pairs_first) {
  EXPECT_EQ(encode(BpeModel(model({"a a"})), "aaa"), (std::vector<TokenId>{6, 1}));
}

TEST(BpeModel, reads_merges_as_strings_and_as_pairs_alike) {
  const BpeModel strings(model({"b c", "a bc"}));
  const BpeModel pairs(model(json::array({{"b", "c"}, {"a", "bc"}})));
  EXPECT_EQ(encode(strings, "abc"), (std::vector<TokenId>{7}));
  EXPECT_EQ(encode(pairs, "abc"), encode(strings, "abc"));
}

TEST(BpeModel, gives_the_same_ids_from_the_cache_as_from_the_merge) {
  const BpeModel bpe(model({"a b", "b c"}));
  const auto first = encode(bpe, "abcabc");
  EXPECT_EQ(encode(bpe, "abcabc"), first);
}

TEST(BpeModel, falls_back_to_byte_tokens_for_a_character_outside_the_vocabulary) {
  const BpeModel bpe(model(json::array(), {{"byte_fallback", true}, {"unk_token", "<unk>"}}));
  EXPECT_EQ(encode(bpe, "a\u00E9"), (std::vector<TokenId>{1, 8, 9}));
}

TEST(BpeModel, fuses_consecutive_unknown_characters_only_when_asked) {
  const BpeModel fused(model(json::array(), {{"unk_token", "<unk>"}, {"fuse_unk", true}}));
  const BpeModel apart(model(json::array(), {{"unk_token", "<unk>"}, {"fuse_unk", false}}));
  EXPECT_EQ(encode(fused, "x\u00FFa"), (std::vector<TokenId>{0, 1}));
  EXPECT_EQ(encode(apart, "x\u00FFa"), (std::vector<TokenId>{0, 0, 1}));
}

TEST(BpeModel, takes_a_whole_piece_from_the_vocabulary_when_merges_are_ignored) {
  EXPECT_EQ(encode(BpeModel(model(json::array(), {{"ignore_merges", true}})), "abc"),
            (std::vector<TokenId>{7}));
  EXPECT_EQ(encode(BpeModel(model(json::array())), "abc"), (std::vector<TokenId>{1, 2, 3}));
}

TEST(BpeModel, refuses_dropout_and_merges_of_unknown_tokens) {
  EXPECT_THROW(BpeModel(model(json::array(), {{"dropout", 0.1}})),
               bench::tokenizer::TokenizerError);
  EXPECT_THROW(BpeModel(model({"a z"})), bench::tokenizer::TokenizerError);
}

// SentencePiece text arrives as one piece; cutting it into words before "▁" must not change
// ids, also where a token ("b▁") joins across such a point.
TEST(BpeModel, keeps_a_token_that_joins_across_a_word_start) {
  const json config = {
      {"type", "BPE"},
      {"vocab", {{"a", 0}, {"b", 1}, {"\u2581", 2}, {"\u2581a", 3}, {"b\u2581", 4}}},
      {"merges", {"b \u2581", "\u2581 a"}}};
  const BpeModel bpe(config);
  EXPECT_EQ(encode(bpe, "\u2581a\u2581a"), (std::vector<TokenId>{3, 3}));
  EXPECT_EQ(encode(bpe, "ab\u2581a"), (std::vector<TokenId>{0, 4, 0}));
}

}  // namespace
