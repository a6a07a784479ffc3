#pragma once
// A dataset file read back one item at a time by its byte range: indexing keeps 16 bytes an
// item, never the text, so a file of any size (the standard ShareGPT file is 640 MB) costs a
// run only its index, and an item is read (pread, safe from several threads at once) when its
// request is about to be sent. The file must not change while a run uses it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/util/unique_fd.hpp"

namespace bench::workload {

/// Where one item lies in its file.
struct ItemSpan {
  std::uint64_t offset = 0;  // first byte
  std::uint32_t bytes = 0;   // length
  std::uint32_t line = 0;    // 1-based line it starts on, for messages (0 when not counted)
};

class IndexedFile {
 public:
  /// Opens `path` for reading items back. Throws DatasetError naming it when it cannot.
  IndexedFile(std::string path, std::vector<ItemSpan> items);

  std::size_t size() const { return items_.size(); }
  const ItemSpan& span(std::size_t item) const { return items_[item]; }
  const std::string& path() const { return path_; }

  /// The bytes of item `item` (< size()). Throws DatasetError naming the file when they cannot
  /// be read whole (the file shrank or went away).
  std::string read(std::size_t item) const;

 private:
  std::string path_;
  std::vector<ItemSpan> items_;
  UniqueFd fd_;
};

}  // namespace bench::workload
