#pragma once
// Every file bench writes (results, HTML, the request log, a merged result, the simulator's
// truth log) is checked before anything is sent: a path that cannot be written is a usage error
// (kExitUsage) naming the flag and the path, never found after the run.
#include <string>
#include <string_view>

namespace bench::cli {

/// Throws UsageError ("FLAG: 'PATH': ...") when `path` is a directory or a block device, or a
/// file that would be replaced (util/output_target.hpp) cannot be: its directory does not exist,
/// or a file cannot be created there. For those it creates (and removes) the temporary file the
/// atomic writer would (util/atomic_file.hpp), so a directory that refuses new files (a
/// read-only mount, /proc) is found even where access(2) says writable. What is written in
/// place (a character device, a FIFO, a socket, /dev/fd/N) must be writable, and is not opened.
void check_output_path(std::string_view flag, const std::string& path);

}  // namespace bench::cli
