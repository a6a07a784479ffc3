#pragma once
// The flags of images in chat requests (images/image_spec.hpp):
//   --images-per-request K   K random images in each request's user message (image_url parts)
//   --image-size WxH         their size in pixels (default 512x512)
//   --image-format F         jpeg (default) or png
// Chat only: /v1/completions has no content parts. The images are part of the workload and its
// fingerprint (a different size is a different prefill).
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Raw values, read in finish_image_flags.
struct RawImageFlags {
  std::string size;
  std::string format;
};

void add_image_flags(CLI::App& app, images::ImageSpec& spec, RawImageFlags& raw);

/// After parsing: reads --image-size and --image-format into run.images and refuses what images
/// do not combine with, before anything is sent. Throws UsageError with one line naming the flag.
void finish_image_flags(const CLI::App& app, RunOptions& run, const RawImageFlags& raw);

}  // namespace bench::cli
