#include "bench/util/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace bench {

namespace {

// Linux follows at most 40 links in one lookup (path_resolution(7)).
constexpr int kMaxLinks = 40;

// N of "/dev/fd/N" or "/proc/self/fd/N". These are the kernel's own links to an open file
// description: following them by name would reach a pipe:[...] that has no path, or open a
// regular file afresh at offset 0, so the descriptor itself is written.
std::optional<int> descriptor_of(std::string_view path) {
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (error == std::errc() && end == digits.data() + digits.size() && fd >= 0) return fd;
  }
  return std::nullopt;
}

// The link's target, relative to the link's own folder when it is relative.
std::optional<std::string> follow_link(const std::string& link) {
  std::vector<char> buffer(4096);
  const ssize_t size = ::readlink(link.c_str(), buffer.data(), buffer.size());
  if (size < 0 || static_cast<std::size_t>(size) == buffer.size()) return std::nullopt;
  std::string target(buffer.data(), static_cast<std::size_t>(size));
  if (target.starts_with('/')) return target;
  const std::size_t slash = link.rfind('/');
  return slash == std::string::npos ? target : link.substr(0, slash + 1) + target;
}

std::variant<OutputTarget, std::string> target_of_kind(const std::string& path,
                                                       const struct stat& info) {
  if (S_ISREG(info.st_mode)) return OutputTarget{OutputTarget::Kind::replaced_file, path, -1};
  if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
    return OutputTarget{OutputTarget::Kind::device, path, -1};
  }
  if (S_ISSOCK(info.st_mode)) return OutputTarget{OutputTarget::Kind::socket, path, -1};
  if (S_ISDIR(info.st_mode)) return std::string("is a directory");
  // A block device is a disk: written in place it would be overwritten, replaced it would lose
  // its node. Neither is what an output path means.
  return std::string("is a block device or another kind bench does not write to");
}

}  // namespace

std::variant<OutputTarget, std::string> resolve_output(const std::string& path) {
  std::string at = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    if (const std::optional<int> fd = descriptor_of(at)) {
      return OutputTarget{OutputTarget::Kind::descriptor, at, *fd};
    }
    struct stat info {};
    if (::lstat(at.c_str(), &info) != 0) {
      // Nothing there yet (a dangling symlink's target included): a new file, made by rename.
      if (errno == ENOENT) return OutputTarget{OutputTarget::Kind::replaced_file, at, -1};
      return std::string(std::strerror(errno));
    }
    if (!S_ISLNK(info.st_mode)) return target_of_kind(at, info);
    const std::optional<std::string> next = follow_link(at);
    if (!next) return std::string("cannot read the symlink");
    at = *next;
  }
  return std::string("too many levels of symbolic links");
}

}  // namespace bench
