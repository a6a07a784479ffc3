#include "bench/images/image_header.hpp"

#include <cstdint>
#include <string>

#include "bench/images/base64.hpp"

namespace bench::images {
namespace {

std::uint32_t big_endian(std::string_view bytes, std::size_t at, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

constexpr std::string_view kPngSignature("\x89PNG\r\n\x1a\n", 8);
constexpr std::string_view kJpegStart("\xFF\xD8\xFF", 3);

// PNG: the 8-byte signature, then IHDR (length 13, "IHDR", width, height), PNG spec 11.2.2.
std::optional<ImageHeader> read_png(std::string_view bytes) {
  if (bytes.size() < 24 || bytes.substr(0, 8) != kPngSignature) return std::nullopt;
  if (bytes.substr(12, 4) != "IHDR") return std::nullopt;
  return ImageHeader{ImageFormat::png, {big_endian(bytes, 16, 4), big_endian(bytes, 20, 4)}};
}

// JPEG: markers from SOI on, each FF xx then a 2-byte length (ITU T.81, B.1.1.2); the frame
// header of any SOFn (C0-CF but C4 DHT, C8 JPG, CC DAC) holds precision, height, width.
std::optional<ImageHeader> read_jpeg(std::string_view bytes) {
  if (bytes.size() < 4 || static_cast<unsigned char>(bytes[0]) != 0xFF ||
      static_cast<unsigned char>(bytes[1]) != 0xD8) {
    return std::nullopt;
  }
  std::size_t at = 2;
  while (at + 4 <= bytes.size()) {
    if (static_cast<unsigned char>(bytes[at]) != 0xFF) return std::nullopt;
    const auto marker = static_cast<unsigned char>(bytes[at + 1]);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    const std::size_t length = big_endian(bytes, at + 2, 2);
    const bool frame =
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (frame) {
      if (at + 9 > bytes.size()) return std::nullopt;
      return ImageHeader{ImageFormat::jpeg,
                         {big_endian(bytes, at + 7, 2), big_endian(bytes, at + 5, 2)}};
    }
    if (marker == 0xD9 || marker == 0xDA || length < 2) return std::nullopt;  // no frame first
    at += 2 + length;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ImageFormat> sniff_image_format(std::string_view first_bytes) {
  if (first_bytes.substr(0, kPngSignature.size()) == kPngSignature) return ImageFormat::png;
  if (first_bytes.substr(0, kJpegStart.size()) == kJpegStart) return ImageFormat::jpeg;
  return std::nullopt;
}

std::optional<ImageHeader> read_image_header(std::string_view bytes) {
  std::optional<ImageHeader> header = read_png(bytes);
  if (!header) header = read_jpeg(bytes);
  if (!header || header->size.width <= 0 || header->size.height <= 0) return std::nullopt;
  return header;
}

std::optional<std::string> data_url_bytes(std::string_view url) {
  constexpr std::string_view kScheme = "data:";
  constexpr std::string_view kBase64 = ";base64,";
  if (url.substr(0, kScheme.size()) != kScheme) return std::nullopt;
  const std::size_t marker = url.find(kBase64);
  if (marker == std::string_view::npos) return std::nullopt;
  return base64_decode(url.substr(marker + kBase64.size()));
}

}  // namespace bench::images
