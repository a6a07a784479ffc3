#include "bench/tokenizer/added_tokens.hpp"

#include <gtest/gtest.h>

namespace {

using bench::tokenizer::AddedToken;
using bench::tokenizer::AddedTokenMatcher;

// Each segment as "[id]" for a token or its text.
std::string show(const AddedTokenMatcher& matcher, std::string_view text) {
  std::string out;
  for (const auto& segment : matcher.split(text)) {
    out += segment.id ? "[" + std::to_string(*segment.id) + "]"
                      : "(" + std::string(segment.text) + ")";
  }
  return out;
}

TEST(AddedTokenMatcher, finds_tokens_anywhere_and_keeps_the_text_between) {
  const AddedTokenMatcher matcher({{"<s>", 1}, {"</s>", 2}});
  EXPECT_EQ(show(matcher, "a<s>b</s></s>c"), "(a)[1](b)[2][2](c)");
  EXPECT_EQ(show(matcher, "no tokens <s"), "(no tokens <s)");
}

TEST(AddedTokenMatcher, takes_the_leftmost_then_the_longest_match) {
  const AddedTokenMatcher matcher({{"\n", 10}, {"\n\n", 11}, {"ab", 12}, {"bc", 13}});
  EXPECT_EQ(show(matcher, "x\n\n\ny"), "(x)[11][10](y)");
  EXPECT_EQ(show(matcher, "abc"), "[12](c)");
}

TEST(AddedTokenMatcher, lets_a_token_take_the_whitespace_beside_it_when_marked) {
  AddedToken left{"<m>", 5, true, false};
  AddedToken right{"<n>", 6, false, true};
  const AddedTokenMatcher matcher({left, right});
  EXPECT_EQ(show(matcher, "a  <m> b"), "(a)[5]( b)");
  EXPECT_EQ(show(matcher, "a <n>  b"), "(a )[6](b)");
}

TEST(AddedTokenMatcher, reports_where_each_segment_starts) {
  const AddedTokenMatcher matcher({{"<s>", 1}});
  const auto segments = matcher.split("ab<s>c");
  ASSERT_EQ(segments.size(), 3u);
  EXPECT_EQ(segments[1].offset, 2u);
  EXPECT_EQ(segments[2].offset, 5u);
}

}  // namespace
