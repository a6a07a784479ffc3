#include "bench/cli/output_paths.hpp"

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/util/atomic_file.hpp"

namespace bench::cli {

void check_output_path(std::string_view flag, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(path, error)) {
    throw UsageError(fmt::format("{}: '{}' is a directory", flag, path));
  }
  const fs::path parent =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(parent, error)) {
    throw UsageError(fmt::format("{}: '{}': no directory '{}'", flag, path, parent.string()));
  }
  try {
    AtomicFileWriter probe(path);  // never committed: its temporary file goes with it
  } catch (const std::runtime_error& failed) {
    // "cannot write 'PATH': creating a temporary file beside it: REASON"
    throw UsageError(fmt::format("{}: {}", flag, failed.what()));
  }
}

}  // namespace bench::cli
