#pragma once
// Image files a dataset names (a jsonl row's "images"), sent as they are: the format comes from
// the file's first bytes (sniff_image_format), never from its name, and the bytes go out as a
// base64 data URL in an image_url part (image_parts.hpp).
//
// Memory: a file is read once for each request that sends it, in pieces encoded as they come,
// so its raw bytes are never held whole beside its URL; nothing is cached between requests
// (a dataset of many large images would otherwise stay in memory, or in a cache whose hits
// depend on the order rows are drawn in). Checking a file before a run reads only its first
// bytes and its size.
#include <cstdint>
#include <optional>
#include <string>

#include "bench/images/image_spec.hpp"

namespace bench::images {

struct ImageFileCheck {
  std::optional<ImageFormat> format;  // nullopt: the file cannot be sent, `error` says why
  std::uint64_t size_bytes = 0;
  // What is wrong, to follow the file's name: "cannot be read: No such file or directory",
  // "is a directory", "is empty", "is neither a JPEG nor a PNG (it starts 47 49 46 38 39 61)".
  std::string error;
};

/// Whether the file at `path` can be sent as an image: it opens, is a regular file, and starts
/// as a JPEG or a PNG. Reads its first bytes only.
ImageFileCheck check_image_file(const std::string& path);

/// The length of the data URL of an image file of `size_bytes` bytes, at most (a JPEG's: its
/// media type is the longer).
std::uint64_t data_url_size(std::uint64_t size_bytes);

/// "data:image/jpeg;base64,..." (or image/png) of the file at `path`, its media type from its
/// first bytes. Throws std::runtime_error naming the file when it cannot be read whole or is
/// no longer a JPEG or PNG (it changed after it was checked).
std::string image_file_data_url(const std::string& path);

}  // namespace bench::images
