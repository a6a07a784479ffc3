// A dataset's image files: judged JPEG or PNG by their first bytes whatever their names, refused
// with the reason when missing, empty, a directory or something else, and sent as a data URL
// whose base64 decodes to the file's exact bytes, also when the file spans many read pieces.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "bench/images/base64.hpp"
#include "bench/images/image_file.hpp"
#include "bench/images/image_header.hpp"
#include "bench/images/random_image.hpp"
#include "run_process.hpp"

namespace bench::images {
namespace {

using bench::testing::TempDir;

// GIF89a's signature: a real image format bench does not send.
const std::string kGifStart("GIF89a\x01\x00\x01\x00", 10);

std::string write(const TempDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(SniffImageFormat, ReadsTheMagicBytesOnly) {
  EXPECT_EQ(sniff_image_format(encode_random_image({8, 8}, ImageFormat::png, 1)), ImageFormat::png);
  EXPECT_EQ(sniff_image_format(encode_random_image({8, 8}, ImageFormat::jpeg, 1)),
            ImageFormat::jpeg);
  EXPECT_EQ(sniff_image_format(std::string("\x89PNG\r\n\x1a\n", 8)), ImageFormat::png);
  EXPECT_EQ(sniff_image_format("\xFF\xD8\xFF"), ImageFormat::jpeg);
  EXPECT_FALSE(sniff_image_format(std::string("\x89PNG\r\n\x1a", 7)));  // one byte short
  EXPECT_FALSE(sniff_image_format("\xFF\xD8"));
  EXPECT_FALSE(sniff_image_format(kGifStart));
  EXPECT_FALSE(sniff_image_format(""));
}

TEST(CheckImageFile, JudgesByContentNotByName) {
  const TempDir dir;
  const std::string png = encode_random_image({20, 10}, ImageFormat::png, 3);
  const ImageFileCheck named_jpg = check_image_file(write(dir, "photo.jpg", png));
  EXPECT_EQ(named_jpg.format, ImageFormat::png) << named_jpg.error;
  EXPECT_EQ(named_jpg.size_bytes, png.size());
  const ImageFileCheck gif = check_image_file(write(dir, "fake.png", kGifStart));
  EXPECT_FALSE(gif.format);
  EXPECT_EQ(gif.error, "is neither a JPEG nor a PNG (it starts 47 49 46 38 39 61 01 00)");
}

TEST(CheckImageFile, SaysWhyAFileCannotBeSent) {
  const TempDir dir;
  EXPECT_EQ(check_image_file(dir.file("missing.png")).error,
            "cannot be read: No such file or directory");
  EXPECT_EQ(check_image_file(dir.path()).error, "is a directory");
  EXPECT_EQ(check_image_file(write(dir, "empty.png", "")).error, "is empty");
  EXPECT_EQ(check_image_file(write(dir, "short.png", "\x89P")).error,
            "is neither a JPEG nor a PNG (it starts 89 50)");
}

TEST(ImageFileDataUrl, DecodesToTheFilesBytesWithTheMediaTypeOfItsContent) {
  const TempDir dir;
  // Noise compresses badly: a 300 x 300 PNG spans many 48 KiB read pieces, and a size that is
  // no multiple of 3 ends in padding.
  std::string png = encode_random_image({300, 300}, ImageFormat::png, 7);
  ASSERT_GT(png.size(), 4u * 48 * 1024);
  if (png.size() % 3 == 0) png += '\0';  // trailing bytes after IEND are still the file's
  const std::string url = image_file_data_url(write(dir, "big.jpg", png));
  EXPECT_EQ(url.rfind("data:image/png;base64,", 0), 0u);
  EXPECT_EQ(data_url_bytes(url), png);
  EXPECT_LE(url.size(), data_url_size(png.size()));

  const std::string jpeg = encode_random_image({64, 32}, ImageFormat::jpeg, 8);
  const std::string jpeg_url = image_file_data_url(write(dir, "small.png", jpeg));
  EXPECT_EQ(jpeg_url, "data:image/jpeg;base64," + base64_encode(jpeg));
  EXPECT_EQ(jpeg_url.size(), data_url_size(jpeg.size()));
}

TEST(ImageFileDataUrl, AFileThatChangedSinceItWasCheckedThrowsNamingIt) {
  const TempDir dir;
  const std::string path = write(dir, "later.png", kGifStart);
  try {
    image_file_data_url(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(path + " is neither a JPEG nor a PNG"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(image_file_data_url(dir.file("gone.png")), std::runtime_error);
}

TEST(Base64Append, PiecesOfThreeBytesEncodeAsTheWhole) {
  const std::string bytes = "any carnal pleasure.";  // 20 bytes: ends in one '=' of padding
  std::string pieces;
  base64_append(bytes.substr(0, 6), pieces);
  base64_append(bytes.substr(6, 9), pieces);
  base64_append(bytes.substr(15), pieces);
  EXPECT_EQ(pieces, base64_encode(bytes));
  EXPECT_EQ(pieces, "YW55IGNhcm5hbCBwbGVhc3VyZS4=");
  EXPECT_EQ(base64_size(bytes.size()), pieces.size());
}

}  // namespace
}  // namespace bench::images
