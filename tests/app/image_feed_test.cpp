// ImageFeed: random images made ahead of the turns that send them, taken without waiting; the
// loop's own making is counted only past the opening stock.
#include "bench/app/point/image_feed.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace {

bench::images::ImageSpec small_jpegs() {
  bench::images::ImageSpec spec;
  spec.per_request = 1;
  spec.width = 28;
  spec.height = 28;
  return spec;
}

TEST(ImageFeed, GivesAsManyImagesAsAskedEachFresh) {
  bench::app::ImageFeed feed(small_jpegs(), 7, 4);
  std::set<std::string> seen;
  for (int turn = 0; turn < 10; ++turn) {
    const std::vector<std::string> images = feed.take(3);
    ASSERT_EQ(images.size(), 3u);
    for (const std::string& url : images) {
      EXPECT_EQ(url.rfind("data:image/jpeg;base64,", 0), 0u);
      EXPECT_TRUE(seen.insert(url).second) << "an image sent twice";
    }
  }
}

TEST(ImageFeed, TheOpeningStockIsNotCountedAsTheLoopsWork) {
  bench::app::ImageFeed feed(small_jpegs(), 7, 4);
  // However few the producer has made yet, the first four are the opening burst's.
  EXPECT_EQ(feed.take(4).size(), 4u);
  EXPECT_EQ(feed.made_by_caller(), 0u);
  // A run that takes far more, at once, than any producer keeps ahead makes some itself.
  EXPECT_EQ(feed.take(400).size(), 400u);
  EXPECT_GT(feed.made_by_caller(), 0u);
  EXPECT_LE(feed.made_by_caller(), 400u);
}

}  // namespace
