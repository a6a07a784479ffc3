#include "bench/images/image_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "bench/images/base64.hpp"
#include "bench/images/image_header.hpp"
#include "bench/util/unique_fd.hpp"

namespace bench::images {
namespace {

constexpr std::string_view kDataPrefix = "data:";
constexpr std::string_view kBase64Marker = ";base64,";
// Read and encoded at a time: a multiple of 3, so the pieces' encodings join without padding.
constexpr std::size_t kPieceBytes = 3 * 16 * 1024;

// Reads up to `bytes.size()` bytes, retrying short reads and EINTR; the count read, or -1.
ssize_t read_fully(int fd, char* bytes, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, bytes + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return static_cast<ssize_t>(done);
}

// The file opened for reading, with its size; `error` set when it cannot be sent.
struct OpenedFile {
  UniqueFd fd;
  std::uint64_t size_bytes = 0;
  std::string error;
};

OpenedFile open_image_file(const std::string& path) {
  OpenedFile file;
  file.fd.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat status {};
  if (!file.fd.valid() || ::fstat(file.fd.get(), &status) != 0) {
    file.error = std::string("cannot be read: ") + std::strerror(errno);
  } else if (S_ISDIR(status.st_mode)) {
    file.error = "is a directory";
  } else if (!S_ISREG(status.st_mode)) {
    file.error = "is not a regular file";
  } else if (status.st_size == 0) {
    file.error = "is empty";
  }
  file.size_bytes = static_cast<std::uint64_t>(status.st_size);
  return file;
}

std::string not_an_image(std::string_view first_bytes) {
  std::string hex;
  for (const char byte : first_bytes) {
    hex += fmt::format("{}{:02X}", hex.empty() ? "" : " ", static_cast<unsigned char>(byte));
  }
  return "is neither a JPEG nor a PNG (it starts " + hex + ")";
}

}  // namespace

ImageFileCheck check_image_file(const std::string& path) {
  ImageFileCheck check;
  OpenedFile file = open_image_file(path);
  check.size_bytes = file.size_bytes;
  if (!file.error.empty()) {
    check.error = std::move(file.error);
    return check;
  }
  char first[kImageMagicBytes];
  const ssize_t got = read_fully(file.fd.get(), first, sizeof first);
  if (got < 0) {
    check.error = std::string("cannot be read: ") + std::strerror(errno);
    return check;
  }
  const std::string_view first_bytes(first, static_cast<std::size_t>(got));
  check.format = sniff_image_format(first_bytes);
  if (!check.format) check.error = not_an_image(first_bytes);
  return check;
}

std::uint64_t data_url_size(std::uint64_t size_bytes) {
  return kDataPrefix.size() + media_type(ImageFormat::jpeg).size() + kBase64Marker.size() +
         base64_size(size_bytes);
}

std::string image_file_data_url(const std::string& path) {
  OpenedFile file = open_image_file(path);
  const auto fail = [&path](const std::string& why) -> std::runtime_error {
    return std::runtime_error(
        fmt::format("image file {} {} (it changed after it was checked)", path, why));
  };
  if (!file.error.empty()) throw fail(file.error);
  std::string url;
  url.reserve(data_url_size(file.size_bytes));
  std::string piece(kPieceBytes, '\0');
  for (bool first = true;; first = false) {
    const ssize_t got = read_fully(file.fd.get(), piece.data(), piece.size());
    if (got < 0) throw fail(std::string("cannot be read: ") + std::strerror(errno));
    const std::string_view bytes(piece.data(), static_cast<std::size_t>(got));
    if (first) {
      const std::optional<ImageFormat> format = sniff_image_format(bytes);
      if (!format) throw fail(not_an_image(bytes.substr(0, kImageMagicBytes)));
      url.append(kDataPrefix).append(media_type(*format)).append(kBase64Marker);
    }
    base64_append(bytes, url);
    if (bytes.size() < piece.size()) break;  // the end of the file
  }
  return url;
}

}  // namespace bench::images
