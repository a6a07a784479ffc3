#pragma once
// The image files a dataset's rows name (jsonl "images"), counted when the file is indexed: what
// the run says of them, and what bounds the memory of request bodies built ahead of their send.
#include <algorithm>
#include <cstdint>

namespace bench::workload {

struct DatasetImages {
  std::uint64_t files = 0;  // image files named by the request rows (one named twice: twice)
  std::uint64_t bytes = 0;  // their sizes, added up
  // The most bytes of data URLs one request carries (its images' base64, with their prefixes).
  std::uint64_t largest_request_url_bytes = 0;

  bool any() const { return files > 0; }

  /// Takes one more request's images into account: `count` files of `file_bytes` and
  /// `url_bytes` as data URLs, together.
  void add(std::uint64_t count, std::uint64_t file_bytes, std::uint64_t url_bytes) {
    files += count;
    bytes += file_bytes;
    largest_request_url_bytes = std::max(largest_request_url_bytes, url_bytes);
  }
};

}  // namespace bench::workload
