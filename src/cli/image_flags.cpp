#include "bench/cli/image_flags.hpp"

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/metrics/figures.hpp"
#include "bench/protocol/endpoint.hpp"

namespace bench::cli {
namespace {

constexpr const char* kImageGroup = "Images (chat)";

}  // namespace

void add_image_flags(CLI::App& app, images::ImageSpec& spec, RawImageFlags& raw) {
  app.add_option("--images-per-request", spec.per_request,
                 "K random images in each request, as base64 data URLs in image_url content "
                 "parts of the user message; a fresh image every request (chat)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{64}))
      ->group(kImageGroup);
  app.add_option("--image-size", raw.size,
                 fmt::format("Each image's size in pixels, WxH (default {}), sides 1..{}",
                             images::size_name(spec.width, spec.height), images::kMaxImageSide))
      ->group(kImageGroup);
  app.add_option("--image-format", raw.format,
                 "jpeg (libjpeg-turbo, quality 85) or png (default jpeg)")
      ->group(kImageGroup);
}

void finish_image_flags(const CLI::App& app, RunOptions& run, const RawImageFlags& raw) {
  if (!run.images.enabled()) {
    for (const char* flag : {"--image-size", "--image-format"}) {
      if (app.count(flag) > 0)
        throw UsageError(fmt::format("{}: needs --images-per-request", flag));
    }
    return;
  }
  if (!protocol::produces(run.endpoint, metrics::Figure::images)) {
    throw UsageError(fmt::format(
        "--images-per-request: applies to --endpoint {}, not {} (a prompt has no image parts)",
        protocol::endpoints_producing(metrics::Figure::images),
        protocol::endpoint_name(run.endpoint)));
  }
  if (!raw.size.empty()) {
    const std::optional<images::ImageSize> size = images::parse_size(raw.size);
    if (!size) {
      throw UsageError(fmt::format("--image-size: '{}' is not WxH with sides 1..{}", raw.size,
                                   images::kMaxImageSide));
    }
    run.images.width = size->width;
    run.images.height = size->height;
  }
  if (!raw.format.empty()) {
    const std::optional<images::ImageFormat> format = images::parse_format(raw.format);
    if (!format)
      throw UsageError(fmt::format("--image-format: '{}' is not jpeg or png", raw.format));
    run.images.format = *format;
  }
}

}  // namespace bench::cli
