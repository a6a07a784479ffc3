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

void append_png_bytes(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}
void flush_nothing(png_structp /*png*/) {}

// libpng's full API for its compression settings: zlib's fastest level and the Sub filter alone,
// as noise gains little from more (a 512x512 image: 27 ms and 773 KiB as a data URL here, where
// the simplified API's defaults took 60 ms for 716 KiB).
std::string encode_png(std::vector<unsigned char>& pixels, ImageSize size) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (png == nullptr) throw std::runtime_error("libpng: cannot start a writer");
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    throw std::runtime_error("libpng: cannot start a writer");
  }
  const auto row_bytes = static_cast<std::size_t>(size.width) * 3;
  std::vector<png_bytep> rows(static_cast<std::size_t>(size.height));
  for (std::size_t y = 0; y < rows.size(); ++y) rows[y] = pixels.data() + y * row_bytes;
  std::string out;
  if (setjmp(png_jmpbuf(png)) != 0) {  // libpng's errors come back here
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("libpng: cannot encode the image");
  }
  png_set_write_fn(png, &out, append_png_bytes, flush_nothing);
  png_set_IHDR(png, info, static_cast<png_uint_32>(size.width),
               static_cast<png_uint_32>(size.height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

}  // namespace

std::string encode_random_image(ImageSize size, ImageFormat format, std::uint64_t seed) {
  std::vector<unsigned char> pixels = random_pixels(size, seed);
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
