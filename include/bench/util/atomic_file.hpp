#pragma once
// Results files are written whole or not at all: the content goes to a temporary file in the
// same folder, is flushed, and is renamed over the target (rename is atomic on POSIX).
#include <string>
#include <string_view>

namespace bench {

/// Throws std::runtime_error naming `path` and the reason when any step fails; the temporary
/// file is removed then.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace bench
