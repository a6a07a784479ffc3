// The random images decode, with the same libraries, as images of the size asked; their header
// reads the same size; no two requests' images are the same; and they land as image_url parts.
#include <png.h>
#include <turbojpeg.h>

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "bench/images/base64.hpp"
#include "bench/images/image_header.hpp"
#include "bench/images/image_parts.hpp"
#include "bench/images/random_image.hpp"

namespace bench::images {
namespace {

using nlohmann::json;

ImageSize decoded_jpeg_size(const std::string& bytes) {
  const std::unique_ptr<void, decltype(&tjDestroy)> handle(tjInitDecompress(), &tjDestroy);
  int width = 0, height = 0, subsampling = 0, colourspace = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  EXPECT_EQ(tjDecompressHeader3(handle.get(), data, bytes.size(), &width, &height, &subsampling,
                                &colourspace),
            0);
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width * height * 3));
  EXPECT_EQ(
      tjDecompress2(handle.get(), data, bytes.size(), pixels.data(), width, 0, height, TJPF_RGB, 0),
      0);
  return {width, height};
}

ImageSize decoded_png_size(const std::string& bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  EXPECT_NE(png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()), 0);
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  EXPECT_NE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr), 0);
  return {image.width, image.height};
}

TEST(RandomImage, JpegDecodesAtTheSizeAskedAndItsHeaderSaysSo) {
  const std::string bytes = encode_random_image({320, 200}, ImageFormat::jpeg, 7);
  EXPECT_EQ(decoded_jpeg_size(bytes), (ImageSize{320, 200}));
  const std::optional<ImageHeader> header = read_image_header(bytes);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->format, ImageFormat::jpeg);
  EXPECT_EQ(header->size, (ImageSize{320, 200}));
}

TEST(RandomImage, PngDecodesAtTheSizeAskedAndItsHeaderSaysSo) {
  const std::string bytes = encode_random_image({33, 17}, ImageFormat::png, 7);
  EXPECT_EQ(decoded_png_size(bytes), (ImageSize{33, 17}));
  const std::optional<ImageHeader> header = read_image_header(bytes);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->format, ImageFormat::png);
  EXPECT_EQ(header->size, (ImageSize{33, 17}));
}

TEST(ImageHeader, RefusesWhatIsNotAnImage) {
  EXPECT_FALSE(read_image_header("hello, world, this is not an image at all"));
  const std::string jpeg = encode_random_image({16, 16}, ImageFormat::jpeg, 1);
  EXPECT_FALSE(read_image_header(jpeg.substr(0, 20)));  // cut before the frame header
  EXPECT_FALSE(read_image_header(""));
}

TEST(Base64, RoundTripsEveryPaddingAndRefusesStrangers) {
  for (const std::string& text :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    const std::optional<std::string> back = base64_decode(base64_encode(text));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, text);
  }
  EXPECT_EQ(base64_encode("Man"), "TWFu");
  EXPECT_EQ(base64_encode("Ma"), "TWE=");
  EXPECT_FALSE(base64_decode("TWF"));
  EXPECT_FALSE(base64_decode("TW!u"));
}

TEST(RequestImages, EachRequestAndEachPlaceGetsItsOwnImage) {
  const ImageSpec spec{2, 24, 24, ImageFormat::jpeg};
  std::set<std::string> seen;
  for (std::uint64_t request = 0; request < 20; ++request) {
    for (const std::string& url : request_images(spec, 99, request)) {
      EXPECT_EQ(url.rfind("data:image/jpeg;base64,", 0), 0u);
      seen.insert(url);
    }
  }
  EXPECT_EQ(seen.size(), 40u);
  // Another run's nonce: other images for the same request.
  EXPECT_NE(request_images(spec, 100, 0), request_images(spec, 99, 0));
}

TEST(WithImages, TheLastUserMessageGetsTextThenImageParts) {
  const json messages = json::array({json{{"role", "system"}, {"content", "be brief"}},
                                     json{{"role", "user"}, {"content", "what is this"}}});
  const json out = with_images(messages, {"data:image/png;base64,AAAA"});
  EXPECT_EQ(out[0], messages[0]);
  const json expected = json::array(
      {json{{"type", "text"}, {"text", "what is this"}},
       json{{"type", "image_url"}, {"image_url", json{{"url", "data:image/png;base64,AAAA"}}}}});
  EXPECT_EQ(out[1]["content"], expected);
  const std::optional<std::string> bytes = data_url_bytes("data:image/png;base64,TWFu");
  ASSERT_TRUE(bytes);
  EXPECT_EQ(*bytes, "Man");
  EXPECT_FALSE(data_url_bytes("https://example.com/a.png"));
}

}  // namespace
}  // namespace bench::images
