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

constexpr std::size_t kBufferBytes = 1 << 20;

std::runtime_error file_error(const std::string& path, const char* what, int error) {
  return std::runtime_error("cannot write '" + path + "': " + what + ": " + std::strerror(error));
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  std::string pattern = path_ + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw file_error(path_, "creating a temporary file beside it", errno);
  temp_path_ = name.data();
  buffer_.reserve(kBufferBytes);
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

void AtomicFileWriter::discard() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(temp_path_.c_str());
  fd_ = -1;
}

void AtomicFileWriter::flush_buffer() {
  std::size_t written = 0;
  while (written < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + written, buffer_.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      discard();
      throw file_error(path_, "writing", error);
    }
    written += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void AtomicFileWriter::write(std::string_view bytes) {
  if (fd_ < 0) throw std::runtime_error("cannot write '" + path_ + "': already closed");
  buffer_.append(bytes);
  if (buffer_.size() >= kBufferBytes) flush_buffer();
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw std::runtime_error("cannot write '" + path_ + "': already closed");
  flush_buffer();
  // mkstemp creates 0600; results files are ordinary files (0666 minus the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
  if (::fsync(fd_) != 0) {
    const int error = errno;
    discard();
    throw file_error(path_, "flushing", error);
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp_path_.c_str());
    throw file_error(path_, "closing", error);
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp_path_.c_str());
    throw file_error(path_, "renaming the temporary file", error);
  }
}

void write_file_atomically(const std::string& path, std::string_view content) {
  AtomicFileWriter writer(path);
  writer.write(content);
  writer.commit();
}

}  // namespace bench
