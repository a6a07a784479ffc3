#include "bench/images/random_image.hpp"

#include <png.h>
#include <turbojpeg.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include "bench/images/base64.hpp"
#include "bench/util/splitmix64.hpp"

namespace bench::images {
namespace {

// RGB, row after row: a diagonal gradient between two random colours, plus up to +-16 of
// noise a channel. The gradient is a table over x + y and one draw gives four pixels' noise, so
// making the pixels costs less than encoding them.
std::vector<unsigned char> random_pixels(ImageSize size, std::uint64_t seed) {
  const auto w = static_cast<std::size_t>(size.width);
  const auto h = static_cast<std::size_t>(size.height);
  std::uint64_t state = util::splitmix64(seed);
  const auto next = [&state] { return util::splitmix64(state++); };
  const std::uint64_t colours = next();
  const std::size_t diagonals = w + h - 1;
  std::vector<int> gradient(diagonals * 3);
  for (std::size_t t = 0; t < diagonals; ++t) {
    for (std::size_t c = 0; c < 3; ++c) {
      const int from = static_cast<int>(colours >> (8 * c) & 0xff);
      const int to = static_cast<int>(colours >> (8 * (c + 3)) & 0xff);
      gradient[t * 3 + c] = from + (to - from) * static_cast<int>(t) /
                                       static_cast<int>(std::max<std::size_t>(1, diagonals - 1));
    }
  }
  std::vector<unsigned char> pixels(w * h * 3);
  std::uint64_t noise = 0;
  std::size_t pixel = 0;
  for (std::size_t y = 0; y < h; ++y) {
    for (std::size_t x = 0; x < w; ++x, ++pixel) {
      if (pixel % 4 == 0) noise = next();
      const auto bits = static_cast<int>(noise >> (16 * (pixel % 4)) & 0x7fff);  // 3 x 5 bits
      for (std::size_t c = 0; c < 3; ++c) {
        const int jitter = (bits >> (5 * c) & 31) - 16;
        pixels[pixel * 3 + c] =
            static_cast<unsigned char>(std::clamp(gradient[(x + y) * 3 + c] + jitter, 0, 255));
      }
    }
  }
  return pixels;
}

std::string encode_jpeg(const std::vector<unsigned char>& pixels, ImageSize size) {
  const std::unique_ptr<void, decltype(&tjDestroy)> handle(tjInitCompress(), &tjDestroy);
  if (!handle) throw std::runtime_error("TurboJPEG: cannot start a compressor");
  unsigned char* out = nullptr;
  unsigned long out_size = 0;
  const int failed = tjCompress2(handle.get(), pixels.data(), static_cast<int>(size.width), 0,
                                 static_cast<int>(size.height), TJPF_RGB, &out, &out_size,
                                 TJSAMP_420, 85, TJFLAG_FASTDCT);
  const std::unique_ptr<unsigned char, decltype(&tjFree)> owned(out, &tjFree);
  if (failed != 0)
    throw std::runtime_error(std::string("TurboJPEG: ") + tjGetErrorStr2(handle.get()));
  return std::string(reinterpret_cast<const char*>(out), out_size);
}

std::string encode_png(const std::vector<unsigned char>& pixels, ImageSize size) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(size.width);
  image.height = static_cast<png_uint_32>(size.height);
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t bytes = 0;
  // libpng's simplified API: the first call sizes the buffer, the second fills it.
  if (png_image_write_to_memory(&image, nullptr, &bytes, 0, pixels.data(), 0, nullptr) == 0) {
    throw std::runtime_error(std::string("libpng: ") + image.message);
  }
  std::string out(bytes, '\0');
  if (png_image_write_to_memory(&image, out.data(), &bytes, 0, pixels.data(), 0, nullptr) == 0) {
    throw std::runtime_error(std::string("libpng: ") + image.message);
  }
  out.resize(bytes);
  return out;
}

}  // namespace

std::string encode_random_image(ImageSize size, ImageFormat format, std::uint64_t seed) {
  const std::vector<unsigned char> pixels = random_pixels(size, seed);
  return format == ImageFormat::png ? encode_png(pixels, size) : encode_jpeg(pixels, size);
}

std::string random_image_data_url(ImageSize size, ImageFormat format, std::uint64_t seed) {
  std::string url = "data:";
  url += media_type(format);
  url += ";base64,";
  url += base64_encode(encode_random_image(size, format, seed));
  return url;
}

}  // namespace bench::images
