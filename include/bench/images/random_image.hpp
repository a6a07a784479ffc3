#pragma once
// Random images for --images-per-request: a smooth random gradient under pixel noise, so no two
// seeds give the same bytes (a server's multimodal cache, keyed by the image's hash, never
// serves one) and the encoded size is nearer a photo's than pure noise would be. Encoded with
// Debian's libjpeg-turbo (TurboJPEG API, quality 85) or libpng.
#include <cstdint>
#include <string>

#include "bench/images/image_spec.hpp"

namespace bench::images {

/// The encoded bytes of a random image of `size` in `format`, a pure function of `seed`.
/// Throws std::runtime_error only if the encoder itself fails (out of memory).
std::string encode_random_image(ImageSize size, ImageFormat format, std::uint64_t seed);

/// "data:image/jpeg;base64,..." of encode_random_image.
std::string random_image_data_url(ImageSize size, ImageFormat format, std::uint64_t seed);

}  // namespace bench::images
