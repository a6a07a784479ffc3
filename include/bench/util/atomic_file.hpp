#pragma once
// Results files are written whole or not at all: the content goes to a temporary file in the
// same folder, is flushed, and is renamed over the target (rename is atomic on POSIX). A writer
// that is destroyed without commit() removes its temporary file, so a crash or an error never
// leaves half a file under the target's name.
//
// What a rename cannot replace is written in place instead (util/output_target.hpp): a
// character device, a FIFO, a Unix socket, an open descriptor (/dev/fd/N). A symlink is
// followed: its target is replaced, the link kept.
#include <string>
#include <string_view>

#include "bench/util/output_target.hpp"
#include "bench/util/unique_fd.hpp"

namespace bench {

class AtomicFileWriter {
 public:
  /// The temporary file's name: a fresh one (mkstemp's), or "<target>.partial", which replaces
  /// what a killed run left there and, with flush() after each record, keeps every record
  /// written so far should this run be killed too (--save-requests).
  enum class Temp { unique, partial };

  /// Creates the temporary file beside `path`'s target, or opens what is written in place (a
  /// FIFO's open waits for its reader). Throws std::runtime_error naming `path`.
  explicit AtomicFileWriter(std::string path, Temp temp = Temp::unique);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  /// Appends bytes (buffered). Throws std::runtime_error naming the target on failure.
  void write(std::string_view bytes);
  /// Hands the buffered bytes to the kernel (no fsync): they survive the process being killed.
  void flush();
  /// Flushes, syncs and renames the temporary file to the target (in place: flushes and
  /// closes). Throws on failure (the temporary file is removed then).
  void commit();
  const std::string& path() const { return path_; }

 private:
  void open_temporary(Temp temp);
  void open_in_place();
  void flush_buffer();
  void discard();

  std::string path_;  // as given, for messages
  OutputTarget target_;
  std::string temp_path_;  // the temporary file beside the target; empty when in place
  UniqueFd fd_;
  std::string buffer_;
};

/// Writes `content` to `path` atomically (an AtomicFileWriter used once).
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace bench
