#include "bench/workload/indexed_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bench/workload/dataset_error.hpp"

namespace bench::workload {

IndexedFile::IndexedFile(std::string path, std::vector<ItemSpan> items)
    : path_(std::move(path)), items_(std::move(items)) {
  items_.shrink_to_fit();
  fd_.reset(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd_.valid()) {
    throw DatasetError(path_, 0, std::string("cannot reopen the file: ") + std::strerror(errno));
  }
}

std::string IndexedFile::read(std::size_t item) const {
  const ItemSpan& where = items_[item];
  std::string bytes(where.bytes, '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::pread(fd_.get(), bytes.data() + done, bytes.size() - done,
                                static_cast<off_t>(where.offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      throw DatasetError(path_, where.line,
                         "changed while in use: item at byte " + std::to_string(where.offset) +
                             " can no longer be read" +
                             (got < 0 ? std::string(" (") + std::strerror(errno) + ")" : ""));
    }
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

}  // namespace bench::workload
