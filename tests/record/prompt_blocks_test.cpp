// A prompt's blocks: equal ids exactly where two prompts have an equal prefix (roles and message
// boundaries included), counted by the simulator's word rule, keyed by the recording's salt.
#include "bench/record/prompt_blocks.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "bench/util/words.hpp"

namespace prompt_blocks_test {

using bench::record::BlockHasher;
using bench::record::message_text;
using nlohmann::json;

// `count` words "w<start>", "w<start + 1>", ...
std::string numbered_words(int start, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "w" + std::to_string(start + i) + " ";
  return text;
}

json message(const std::string& role, const std::string& content) {
  return json{{"role", role}, {"content", content}};
}

TEST(PromptBlocks, CountsWordsAsTheSimulatorDoesAndHashesEachWholeBlock) {
  const BlockHasher hasher(7, 4, nullptr);
  const json messages =
      json::array({message("system", numbered_words(0, 5)), message("user", numbered_words(5, 6))});
  const auto blocks = hasher.blocks(messages);
  EXPECT_EQ(blocks.units, 11);
  EXPECT_EQ(blocks.system_units, 5);
  EXPECT_EQ(blocks.hashes.size(), 2u);  // floor(11 / 4)
  EXPECT_EQ(hasher.unit(), "words");
}

TEST(PromptBlocks, TwoPromptsShareTheIdsOfTheBlocksOfTheirEqualPrefixAndNoMore) {
  const BlockHasher hasher(7, 4, nullptr);
  const json first = json::array({message("user", numbered_words(0, 10))});
  // The same ten words, then a reply and more: the first two blocks are equal.
  const json next = json::array({message("user", numbered_words(0, 10)),
                                 message("assistant", numbered_words(100, 3)),
                                 message("user", numbered_words(200, 6))});
  const auto a = hasher.blocks(first).hashes;
  const auto b = hasher.blocks(next).hashes;
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(a[1], b[1]);
  // A word changed in block 2 changes it and every block after it, never one before.
  std::string changed = numbered_words(0, 10);
  changed.replace(changed.find("w9 "), 3, "w99 ");
  const auto c = hasher
                     .blocks(json::array({message("user", changed),
                                          message("assistant", numbered_words(100, 3)),
                                          message("user", numbered_words(200, 6))}))
                     .hashes;
  EXPECT_EQ(c[1], b[1]);
  EXPECT_NE(c[2], b[2]);
  EXPECT_NE(c[3], b[3]);
}

TEST(PromptBlocks, ARoleOrAMessageBoundaryIsPartOfThePrefix) {
  const BlockHasher hasher(7, 4, nullptr);
  const auto as_user = hasher.blocks(json::array({message("user", numbered_words(0, 4))}));
  const auto as_system = hasher.blocks(json::array({message("system", numbered_words(0, 4))}));
  const auto split = hasher.blocks(
      json::array({message("user", numbered_words(0, 2)), message("user", numbered_words(2, 2))}));
  EXPECT_NE(as_user.hashes[0], as_system.hashes[0]);
  EXPECT_NE(as_user.hashes[0], split.hashes[0]);
}

TEST(PromptBlocks, AnotherSaltGivesOtherHashesForTheSamePrompt) {
  const json messages = json::array({message("user", numbered_words(0, 4))});
  EXPECT_NE(BlockHasher(1, 4, nullptr).blocks(messages).hashes,
            BlockHasher(2, 4, nullptr).blocks(messages).hashes);
  EXPECT_EQ(BlockHasher(1, 4, nullptr).blocks(messages).hashes,
            BlockHasher(1, 4, nullptr).blocks(messages).hashes);
}

TEST(PromptBlocks, AMessagesTextIsItsContentPartsAndToolCallsAsTheSimulatorCountsThem) {
  const json parts = {
      {"role", "user"},
      {"content", json::array({json{{"type", "text"}, {"text", "a b"}}, json{{"type", "image_url"}},
                               json{{"type", "text"}, {"text", "c"}}})}};
  EXPECT_EQ(message_text(parts), "a b\nc");
  const json call = {
      {"role", "assistant"},
      {"content", nullptr},
      {"tool_calls",
       json::array({json{{"function", {{"name", "ls"}, {"arguments", "{\"d\": 1}"}}}}})}};
  EXPECT_EQ(message_text(call), "ls {\"d\": 1}");
  EXPECT_EQ(bench::util::count_words(message_text(call)), 3);
  EXPECT_EQ(message_text(json{{"role", "user"}}), "");
}

// A tokenizer of one token per byte: enough to see the blocks cut in its tokens.
class ByteTokenizer final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    return {text.begin(), text.end()};
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>& ids) const override {
    return {ids.begin(), ids.end()};
  }
  const std::vector<std::string>& special_tokens() const override { return none_; }
  const std::string& description() const override { return name_; }

 private:
  std::vector<std::string> none_;
  std::string name_ = "bytes";
};

TEST(PromptBlocks, WithATokenizerCutsTheBlocksInItsTokens) {
  const ByteTokenizer bytes;
  const BlockHasher hasher(7, 4, &bytes);
  const auto blocks =
      hasher.blocks(json::array({message("user", "ab cd"), message("user", "efg")}));
  EXPECT_EQ(blocks.units, 8);  // 5 + 3 bytes
  EXPECT_EQ(blocks.hashes.size(), 2u);
  EXPECT_EQ(hasher.count("a b"), 3);
  EXPECT_EQ(hasher.unit(), "tokens");
}

}  // namespace prompt_blocks_test
