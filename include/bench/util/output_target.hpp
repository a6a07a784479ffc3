#pragma once
// Where an output path leads, and so how bench writes it (docs/when-things-go-wrong.md, "Output
// paths that are not regular files"). A regular file, or a path with nothing there yet, is
// replaced whole: a temporary file beside it renamed over it. A symlink is followed and its
// target replaced so, the link kept. What cannot be replaced by a rename is written in place: a
// character device (/dev/null, /dev/full, a terminal), a FIFO, a Unix socket, or an open
// descriptor named /dev/fd/N or /proc/self/fd/N (bash's `>(jq .)`; /dev/stdout leads there).
// Renaming over those would put a regular file where the device was (as root, in /dev).
#include <string>
#include <variant>

namespace bench {

struct OutputTarget {
  enum class Kind {
    replaced_file,  // a regular file, or none yet: temporary file and rename, at `path`
    device,         // a character device or FIFO: opened at `path` and written in place
    socket,         // a Unix socket: connected to at `path` and written
    descriptor,     // an open descriptor of this process: `fd`, duplicated and written
  };
  Kind kind = Kind::replaced_file;
  std::string path;  // where the symlinks (if any) lead
  int fd = -1;       // Kind::descriptor: its number
};

/// Where `path` leads, or why bench will not write there (a directory, a block device, a
/// symlink loop), as a reason without the path.
std::variant<OutputTarget, std::string> resolve_output(const std::string& path);

}  // namespace bench
