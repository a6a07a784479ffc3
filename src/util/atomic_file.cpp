#include "bench/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <variant>
#include <vector>

namespace bench {

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;

std::runtime_error file_error(const std::string& path, const char* what, int error) {
  return std::runtime_error("cannot write '" + path + "': " + what + ": " + std::strerror(error));
}

// A signal without SA_RESTART (main.cpp's) interrupts a blocking open or connect.
int open_retrying(const char* path, int flags, mode_t mode = 0) {
  int fd = -1;
  do {
    fd = ::open(path, flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

UniqueFd connect_unix(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return UniqueFd();
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return fd;
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    return UniqueFd();
  }
  return fd;
}

// A duplicate of `fd` when it is open for writing.
UniqueFd duplicate_for_writing(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return UniqueFd();
  if ((flags & O_ACCMODE) == O_RDONLY) {
    errno = EBADF;
    return UniqueFd();
  }
  return UniqueFd(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path, Temp temp) : path_(std::move(path)) {
  auto resolved = resolve_output(path_);
  if (const auto* why = std::get_if<std::string>(&resolved)) {
    throw std::runtime_error("cannot write '" + path_ + "': " + *why);
  }
  target_ = std::get<OutputTarget>(std::move(resolved));
  if (target_.kind == OutputTarget::Kind::replaced_file) {
    open_temporary(temp);
  } else {
    open_in_place();
  }
  buffer_.reserve(kBufferBytes);
}

void AtomicFileWriter::open_temporary(Temp temp) {
  if (temp == Temp::partial) {
    temp_path_ = target_.path + ".partial";
    ::unlink(temp_path_.c_str());  // a killed run's; a new file, not one reached by a link
    fd_.reset(open_retrying(temp_path_.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  } else {
    std::string pattern = target_.path + ".tmp.XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    fd_.reset(::mkstemp(name.data()));
    temp_path_ = name.data();
  }
  if (!fd_.valid()) {
    const int error = errno;
    temp_path_.clear();
    throw file_error(path_, "creating a temporary file beside it", error);
  }
}

void AtomicFileWriter::open_in_place() {
  switch (target_.kind) {
    case OutputTarget::Kind::descriptor: fd_ = duplicate_for_writing(target_.fd); break;
    case OutputTarget::Kind::socket: fd_ = connect_unix(target_.path); break;
    default: fd_.reset(open_retrying(target_.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC)); break;
  }
  if (!fd_.valid()) throw file_error(path_, "opening it", errno);
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

void AtomicFileWriter::discard() {
  if (!fd_.valid()) return;
  fd_.reset();
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFileWriter::flush_buffer() {
  std::size_t written = 0;
  while (written < buffer_.size()) {
    const ssize_t n = ::write(fd_.get(), buffer_.data() + written, buffer_.size() - written);
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
  if (!fd_.valid()) throw std::runtime_error("cannot write '" + path_ + "': already closed");
  buffer_.append(bytes);
  if (buffer_.size() >= kBufferBytes) flush_buffer();
}

void AtomicFileWriter::flush() {
  if (!fd_.valid()) throw std::runtime_error("cannot write '" + path_ + "': already closed");
  flush_buffer();
}

void AtomicFileWriter::commit() {
  if (!fd_.valid()) throw std::runtime_error("cannot write '" + path_ + "': already closed");
  flush_buffer();
  if (temp_path_.empty()) {  // in place: nothing to sync or rename, and no mode to set
    // Closed whatever close says (close(2) on Linux); an error may be a late write's (NFS).
    if (::close(fd_.release()) != 0 && errno != EINTR) throw file_error(path_, "closing", errno);
    return;
  }
  // The temporary file is 0600 (mkstemp, O_EXCL above); results files are ordinary files
  // (0666 minus the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_.get(), 0666 & ~mask);
  if (::fsync(fd_.get()) != 0) {
    const int error = errno;
    discard();
    throw file_error(path_, "flushing", error);
  }
  if (::close(fd_.release()) != 0) {
    const int error = errno;
    ::unlink(temp_path_.c_str());
    throw file_error(path_, "closing", error);
  }
  if (std::rename(temp_path_.c_str(), target_.path.c_str()) != 0) {
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
