#pragma once
// An encoded image's size from its header alone (no decode): a PNG's IHDR chunk, a JPEG's
// start-of-frame marker. What the simulator needs to count an image's tokens, as a server's
// image processor would after decoding.
#include <cstddef>
#include <optional>
#include <string_view>

#include "bench/images/image_spec.hpp"

namespace bench::images {

struct ImageHeader {
  ImageFormat format = ImageFormat::jpeg;
  ImageSize size;
};

/// The format of an image from its first bytes alone: the PNG signature (PNG spec 5.2), or a
/// JPEG's start-of-image marker followed by another marker (FF D8 FF, ITU T.81 B.1.1.3).
/// nullopt for anything else (a GIF, WebP, text, too few bytes). What a file's type is judged
/// by, never its name.
std::optional<ImageFormat> sniff_image_format(std::string_view first_bytes);
/// Bytes sniff_image_format needs at most.
inline constexpr std::size_t kImageMagicBytes = 8;

/// The format and size of a PNG or JPEG; nullopt for anything else, a truncated header, or a
/// zero side.
std::optional<ImageHeader> read_image_header(std::string_view bytes);

/// The bytes of a "data:<media type>;base64,<data>" URL; nullopt for any other URL or bad base64.
std::optional<std::string> data_url_bytes(std::string_view url);

}  // namespace bench::images
