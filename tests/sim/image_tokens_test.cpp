// The simulator's image rule: an image_url part of W x H pixels costs ceil(W/P) x ceil(H/P)
// prompt tokens beside the text's, its size read from the image's own header; an image it
// cannot read is a 400 (parse refused), as vLLM answers a corrupt image.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "bench/images/random_image.hpp"
#include "bench/sim/completion_request.hpp"

namespace {

using bench::images::ImageFormat;
using bench::images::random_image_data_url;
using bench::sim::ChatTemplate;
using bench::sim::parse_completion_request;
using bench::sim::PromptCounter;
using nlohmann::json;

std::string chat_with(const std::vector<std::string>& urls) {
  json content = json::array({json{{"type", "text"}, {"text", "one two three"}}});
  for (const std::string& url : urls) {
    content.push_back(json{{"type", "image_url"}, {"image_url", json{{"url", url}}}});
  }
  return json{{"messages", json::array({json{{"role", "user"}, {"content", content}}})}}.dump();
}

TEST(ImageTokens, EachImageCostsItsPatchGridBesideTheText) {
  const PromptCounter counter(nullptr, ChatTemplate::none);  // 14-pixel patches
  const std::string jpeg = random_image_data_url({140, 70}, ImageFormat::jpeg, 1);  // 10 x 5
  const std::string png = random_image_data_url({15, 28}, ImageFormat::png, 2);     // 2 x 2
  const auto parsed = parse_completion_request(chat_with({jpeg, png}), true, counter);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->prompt_tokens, 3 + 50 + 4);
  EXPECT_EQ(parsed.request->image_count, 2);
}

TEST(ImageTokens, ThePatchSizeIsTheServersSetting) {
  PromptCounter counter(nullptr, ChatTemplate::none);
  counter.set_image_patch_px(28);
  const std::string jpeg = random_image_data_url({280, 280}, ImageFormat::jpeg, 1);
  const auto parsed = parse_completion_request(chat_with({jpeg}), true, counter);
  ASSERT_TRUE(parsed.request) << parsed.error;
  EXPECT_EQ(parsed.request->prompt_tokens, 3 + 100);
}

TEST(ImageTokens, AnImageThatCannotBeReadIsRefused) {
  const PromptCounter counter(nullptr, ChatTemplate::none);
  const std::string good = random_image_data_url({32, 32}, ImageFormat::jpeg, 1);
  for (const std::string& url :
       {std::string("https://example.com/cat.jpg"), std::string("data:image/jpeg;base64,%%%%"),
        std::string("data:image/png;base64,aGVsbG8gd29ybGQh"), good.substr(0, 43)}) {
    const auto parsed = parse_completion_request(chat_with({url}), true, counter);
    SCOPED_TRACE(url);
    EXPECT_FALSE(parsed.request);
    EXPECT_EQ(parsed.error.rfind("Invalid image: image 0", 0), 0u) << parsed.error;
  }
}

}  // namespace
