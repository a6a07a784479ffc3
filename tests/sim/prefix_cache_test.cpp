// The simulator's prefix cache: prompts hashed per 16-token block with everything before each
// block (a chat image's tokens in its place, keyed by its bytes), hits on shared leading blocks
// only, never the last prompt token, LRU eviction at the capacity, and a flush that empties it.
#include "bench/sim/prefix_cache.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/images/random_image.hpp"

namespace {

using bench::images::random_image_data_url;
using bench::sim::kPrefixBlockTokens;
using bench::sim::PrefixCache;
using bench::sim::PrefixHasher;
using bench::sim::prompt_block_hashes;
using nlohmann::json;

constexpr std::int64_t kPatchPx = 14;  // the simulator's default: 14-pixel patches

// `count` words "w<start> w<start+1> ...".
std::string words(int start, int count) {
  std::string text;
  for (int i = start; i < start + count; ++i)
    text += (text.empty() ? "w" : " w") + std::to_string(i);
  return text;
}

std::vector<std::uint64_t> hashes_of(const std::string& text) {
  PrefixHasher hasher;
  hasher.add_text(text);
  return hasher.block_hashes();
}

TEST(PrefixHasher, GivesOneHashPerFullBlock) {
  EXPECT_EQ(kPrefixBlockTokens, 16);
  EXPECT_TRUE(hashes_of(words(0, 15)).empty());
  EXPECT_EQ(hashes_of(words(0, 16)).size(), 1u);
  EXPECT_EQ(hashes_of(words(0, 47)).size(), 2u);
  EXPECT_EQ(hashes_of(words(0, 48)).size(), 3u);
}

TEST(PrefixHasher, ABlockMatchesOnlyWhenEverythingBeforeItMatches) {
  const auto a = hashes_of(words(0, 48));
  const auto b = hashes_of(words(0, 20) + " other " + words(21, 27));  // differs in block 2
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_NE(a[1], b[1]);
  EXPECT_NE(a[2], b[2]);  // same words as a's third block, after a different prefix
  // Whitespace is not a token; word boundaries are.
  EXPECT_EQ(hashes_of(words(0, 16)), hashes_of("  " + words(0, 16) + "\n"));
  EXPECT_NE(hashes_of("ab c" + std::string(" x") + words(0, 14)),
            hashes_of("a bc" + std::string(" x") + words(0, 14)));
}

TEST(PromptBlockHashes, ReadsCompletionPromptsAndChatMessagesWithTheirRoles) {
  const std::string prompt = words(0, 32);
  EXPECT_EQ(prompt_block_hashes(R"({"prompt":")" + prompt + R"("})", false, kPatchPx),
            hashes_of(prompt));
  const auto user = prompt_block_hashes(
      R"({"messages":[{"role":"user","content":")" + prompt + R"("}]})", true, kPatchPx);
  const auto system = prompt_block_hashes(
      R"({"messages":[{"role":"system","content":")" + prompt + R"("}]})", true, kPatchPx);
  ASSERT_EQ(user.size(), 2u);
  EXPECT_NE(user, system);
  EXPECT_TRUE(prompt_block_hashes("not json", false, kPatchPx).empty());
  EXPECT_EQ(
      prompt_block_hashes(R"({"prompt":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]})", false, kPatchPx)
          .size(),
      1u);
}

TEST(PromptBlockHashes, AnAssistantsToolCallsArePartOfThePrefix) {
  const std::string head = R"({"messages":[{"role":"user","content":")" + words(0, 12) +
                           R"("},{"role":"assistant","content":null,"tool_calls":[{"id":"c",)"
                           R"("type":"function","function":{"name":"f","arguments":")";
  const auto one = prompt_block_hashes(head + words(100, 8) + R"("}}]}]})", true, kPatchPx);
  const auto other = prompt_block_hashes(head + words(200, 8) + R"("}}]}]})", true, kPatchPx);
  ASSERT_EQ(one.size(), 1u);  // 12 + 1 + 8 words: one full block, the arguments in it
  EXPECT_NE(one, other);
}

// A chat body of one user message whose content parts are `parts` (JSON, in order).
std::string chat_with_parts(const std::vector<json>& parts) {
  return json{{"messages", json::array({json{{"role", "user"}, {"content", parts}}})}}.dump();
}

json text_part(const std::string& text) { return {{"type", "text"}, {"text", text}}; }

// A 140 x 140 PNG of its own seed: 10 x 10 = 100 tokens of 14-pixel patches.
json image_part(std::uint64_t seed) {
  return {{"type", "image_url"},
          {"image_url",
           {{"url", random_image_data_url({140, 140}, bench::images::ImageFormat::png, seed)}}}};
}

TEST(PromptBlockHashes, AnImageFillsItsTokensInPlaceKeyedByItsBytes) {
  const std::string text = words(0, 32);
  const auto a =
      prompt_block_hashes(chat_with_parts({image_part(1), text_part(text)}), true, kPatchPx);
  const auto a_again =
      prompt_block_hashes(chat_with_parts({image_part(1), text_part(text)}), true, kPatchPx);
  const auto b =
      prompt_block_hashes(chat_with_parts({image_part(2), text_part(text)}), true, kPatchPx);
  ASSERT_EQ(a.size(), 8u);  // 100 image tokens + 32 words: 8 full blocks
  EXPECT_EQ(a, a_again);
  // The same words after another image: no block in common, not even the text's.
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NE(a[i], b[i]) << "block " << i;
  // Larger patches, fewer tokens: (10 x 10 at 14 px) vs (5 x 5 at 28 px).
  EXPECT_EQ(prompt_block_hashes(chat_with_parts({image_part(1), text_part(text)}), true, 28).size(),
            3u);  // 25 + 32 tokens
}

TEST(PrefixCache, TheSameTextWithAnotherImageIsNotServedFromTheFirstImagesBlocks) {
  PrefixCache cache(100);
  const std::string text = words(0, 32);
  const auto with = [&](std::uint64_t seed) {
    return prompt_block_hashes(chat_with_parts({image_part(seed), text_part(text)}), true,
                               kPatchPx);
  };
  EXPECT_EQ(cache.admit(with(1), 132), 0);
  EXPECT_EQ(cache.admit(with(2), 132), 0);    // another image: nothing of it is cached
  EXPECT_EQ(cache.admit(with(1), 132), 128);  // the same image again: its blocks are
}

TEST(PrefixCache, TextBeforeAnImageIsSharedAndTheImageIsNot) {
  PrefixCache cache(100);
  const std::string text = words(0, 32);  // two whole blocks before the image
  const auto with = [&](std::uint64_t seed) {
    return prompt_block_hashes(chat_with_parts({text_part(text), image_part(seed)}), true,
                               kPatchPx);
  };
  EXPECT_EQ(cache.admit(with(1), 132), 0);
  EXPECT_EQ(cache.admit(with(2), 132), 32);
}

TEST(PrefixCache, ServesTheSecondSendOfAPromptFromItsWholeBlocks) {
  PrefixCache cache(100);
  const auto prompt = hashes_of(words(0, 50));  // 3 full blocks, 2 words over
  EXPECT_EQ(cache.admit(prompt, 50), 0);
  EXPECT_EQ(cache.cached_blocks(), 3);
  EXPECT_EQ(cache.admit(prompt, 50), 48);
}

TEST(PrefixCache, NeverServesThePromptsLastToken) {
  PrefixCache cache(100);
  const auto prompt = hashes_of(words(0, 48));  // exactly 3 blocks
  cache.admit(prompt, 48);
  EXPECT_EQ(cache.admit(prompt, 48), 32);  // the third block holds the last token
}

TEST(PrefixCache, ServesASharedPrefixUpToTheFirstDifferentBlock) {
  PrefixCache cache(100);
  cache.admit(hashes_of(words(0, 64)), 64);
  EXPECT_EQ(cache.admit(hashes_of(words(0, 40) + " new " + words(100, 30)), 71), 32);
  EXPECT_EQ(cache.admit(hashes_of("new " + words(0, 63)), 64), 0);
}

TEST(PrefixCache, EvictsTheLeastRecentlyUsedBlockAtCapacity) {
  PrefixCache cache(3);
  const auto a = hashes_of("a " + words(0, 16));  // one full block each
  const auto b = hashes_of("b " + words(0, 16));
  const auto c = hashes_of("c " + words(0, 16));
  const auto d = hashes_of("d " + words(0, 16));
  cache.admit(a, 17);
  cache.admit(b, 17);
  cache.admit(c, 17);
  EXPECT_EQ(cache.admit(a, 17), 16);  // a is now the most recent; b the least
  cache.admit(d, 17);                 // evicts b
  EXPECT_EQ(cache.cached_blocks(), 3);
  EXPECT_FALSE(cache.contains(b[0]));
  EXPECT_TRUE(cache.contains(a[0]));
  EXPECT_EQ(cache.admit(c, 17), 16);
  EXPECT_EQ(cache.admit(b, 17), 0);  // gone; added again, evicting a (least recent now)
  EXPECT_FALSE(cache.contains(a[0]));
}

TEST(PrefixCache, APromptLargerThanTheCapacityKeepsOnlyItsLastBlocks) {
  PrefixCache cache(2);
  const auto prompt = hashes_of(words(0, 64));  // 4 blocks
  cache.admit(prompt, 64);
  EXPECT_EQ(cache.cached_blocks(), 2);
  EXPECT_EQ(cache.admit(prompt, 64), 0);  // its first block was evicted: no prefix to serve
}

TEST(PrefixCache, ZeroCapacityCachesNothing) {
  PrefixCache cache(0);
  const auto prompt = hashes_of(words(0, 64));
  cache.admit(prompt, 64);
  EXPECT_EQ(cache.admit(prompt, 64), 0);
  EXPECT_EQ(cache.cached_blocks(), 0);
}

TEST(PrefixCache, FlushEmptiesIt) {
  PrefixCache cache(100);
  const auto prompt = hashes_of(words(0, 64));
  cache.admit(prompt, 64);
  cache.flush();
  EXPECT_EQ(cache.cached_blocks(), 0);
  EXPECT_EQ(cache.admit(prompt, 64), 0);
  EXPECT_EQ(cache.admit(prompt, 64), 48);
}

}  // namespace
