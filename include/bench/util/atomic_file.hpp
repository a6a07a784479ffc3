#pragma once
// Results files are written whole or not at all: the content goes to a temporary file in the
// same folder, is flushed, and is renamed over the target (rename is atomic on POSIX). A writer
// that is destroyed without commit() removes its temporary file, so a crash or an error never
// leaves half a file under the target's name.
#include <string>
#include <string_view>

namespace bench {

class AtomicFileWriter {
 public:
  /// Creates the temporary file beside `path`. Throws std::runtime_error naming `path`.
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  /// Appends bytes (buffered). Throws std::runtime_error naming the target on failure.
  void write(std::string_view bytes);
  /// Flushes, syncs and renames the temporary file to the target. Throws on failure (the
  /// temporary file is removed then).
  void commit();
  const std::string& path() const { return path_; }

 private:
  void flush_buffer();
  void discard();

  std::string path_;       // the target
  std::string temp_path_;  // the temporary file beside it
  int fd_ = -1;
  std::string buffer_;
};

/// Writes `content` to `path` atomically (an AtomicFileWriter used once).
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace bench
