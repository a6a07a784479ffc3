#include "bench/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace bench {

namespace {

std::runtime_error file_error(const std::string& path, const char* what) {
  return std::runtime_error("cannot write '" + path + "': " + what + ": " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content) {
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) throw file_error(path, "creating a temporary file beside it");
  const std::string temp_path(name.data());
  auto fail = [&](const char* what) {
    const std::runtime_error error = file_error(path, what);
    ::close(fd);
    ::unlink(temp_path.c_str());
    return error;
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail("writing");
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; results files are ordinary files (0644 minus the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::fsync(fd) != 0) throw fail("flushing");
  if (::close(fd) != 0) {
    ::unlink(temp_path.c_str());
    throw file_error(path, "closing");
  }
  if (std::rename(temp_path.c_str(), path.c_str()) != 0) {
    const std::runtime_error error = file_error(path, "renaming the temporary file");
    ::unlink(temp_path.c_str());
    throw error;
  }
}

}  // namespace bench
