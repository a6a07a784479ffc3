#include "bench/images/image_spec.hpp"

#include <charconv>

#include <fmt/format.h>

namespace bench::images {
namespace {

std::optional<std::int64_t> parse_side(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  if (value < 1 || value > kMaxImageSide) return std::nullopt;
  return value;
}

}  // namespace

std::string_view format_name(ImageFormat format) {
  return format == ImageFormat::png ? "png" : "jpeg";
}

std::optional<ImageFormat> parse_format(std::string_view name) {
  if (name == "jpeg") return ImageFormat::jpeg;
  if (name == "png") return ImageFormat::png;
  return std::nullopt;
}

std::string_view media_type(ImageFormat format) {
  return format == ImageFormat::png ? "image/png" : "image/jpeg";
}

std::optional<ImageSize> parse_size(std::string_view text) {
  const std::size_t x = text.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const std::optional<std::int64_t> width = parse_side(text.substr(0, x));
  const std::optional<std::int64_t> height = parse_side(text.substr(x + 1));
  if (!width || !height) return std::nullopt;
  return ImageSize{*width, *height};
}

std::string size_name(std::int64_t width, std::int64_t height) {
  return fmt::format("{}x{}", width, height);
}

}  // namespace bench::images
