#pragma once
// An encoded image's size from its header alone (no decode): a PNG's IHDR chunk, a JPEG's
// start-of-frame marker. What the simulator needs to count an image's tokens, as a server's
// image processor would after decoding.
#include <optional>
#include <string_view>

#include "bench/images/image_spec.hpp"

namespace bench::images {

struct ImageHeader {
  ImageFormat format = ImageFormat::jpeg;
  ImageSize size;
};

/// The format and size of a PNG or JPEG; nullopt for anything else, a truncated header, or a
/// zero side.
std::optional<ImageHeader> read_image_header(std::string_view bytes);

/// The bytes of a "data:<media type>;base64,<data>" URL; nullopt for any other URL or bad base64.
std::optional<std::string> data_url_bytes(std::string_view url);

}  // namespace bench::images
