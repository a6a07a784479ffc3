#pragma once
// What --images-per-request, --image-size and --image-format ask for: K random images of W x H
// pixels in each chat request. The one owner of the flags' defaults, names and parsing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench::images {

enum class ImageFormat { jpeg, png };

struct ImageSpec {
  std::int64_t per_request = 0;  // 0: no images
  std::int64_t width = 512;
  std::int64_t height = 512;
  ImageFormat format = ImageFormat::jpeg;

  bool enabled() const { return per_request > 0; }
};

/// "jpeg" or "png": the flag's value and the results' name.
std::string_view format_name(ImageFormat format);
std::optional<ImageFormat> parse_format(std::string_view name);
/// The data URL's media type: "image/jpeg" or "image/png".
std::string_view media_type(ImageFormat format);

struct ImageSize {
  std::int64_t width = 0;
  std::int64_t height = 0;
  bool operator==(const ImageSize&) const = default;
};

/// "WxH" with 1 <= W, H <= kMaxImageSide; nullopt otherwise.
std::optional<ImageSize> parse_size(std::string_view text);
/// "WxH".
std::string size_name(std::int64_t width, std::int64_t height);

/// The largest side accepted: JPEG's own limit (65,500 pixels) is far above what a vision
/// encoder takes, and a side this size already makes a 64-megapixel image per request.
inline constexpr std::int64_t kMaxImageSide = 8192;

}  // namespace bench::images
