#include "bench/cli/output_paths.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/output_target.hpp"

namespace bench::cli {

namespace {

// A file replaced by rename: its folder must take a new file.
void check_replaced_file(std::string_view flag, const std::string& path,
                         const OutputTarget& target) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path parent = fs::path(target.path).parent_path().empty()
                              ? fs::path(".")
                              : fs::path(target.path).parent_path();
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

// What is written in place is not opened here: a FIFO's open would wait for its reader (and
// closing it would end the reader's input), a socket's peer would see a connection.
void check_in_place(std::string_view flag, const std::string& path, const OutputTarget& target) {
  if (target.kind == OutputTarget::Kind::descriptor) {
    const int flags = ::fcntl(target.fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
      throw UsageError(fmt::format("{}: '{}': not a descriptor open for writing", flag, path));
    }
    return;
  }
  if (::access(target.path.c_str(), W_OK) != 0) {
    throw UsageError(fmt::format("{}: '{}': not writable", flag, path));
  }
}

}  // namespace

void check_output_path(std::string_view flag, const std::string& path) {
  auto resolved = resolve_output(path);
  if (const auto* why = std::get_if<std::string>(&resolved)) {
    throw UsageError(fmt::format("{}: '{}' {}", flag, path, *why));
  }
  const OutputTarget& target = std::get<OutputTarget>(resolved);
  if (target.kind == OutputTarget::Kind::replaced_file) {
    check_replaced_file(flag, path, target);
  } else {
    check_in_place(flag, path, target);
  }
}

}  // namespace bench::cli
