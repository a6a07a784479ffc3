#include "dataset_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include "bench/workload/dataset_error.hpp"

namespace bench::workload::detail {

std::ifstream open_dataset_file(const std::string& path, std::string_view what) {
  const std::string prefix = "cannot read the " + std::string(what) + " file: ";
  if (path.empty()) throw DatasetError("(no path)", 0, prefix + "no --dataset-path given");
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw DatasetError(path, 0, prefix + "it is a directory");
  }
  errno = 0;
  std::ifstream file(path, std::ios::binary);
  if (!file.is_open()) {
    throw DatasetError(path, 0, prefix + (errno != 0 ? std::strerror(errno) : "cannot open"));
  }
  return file;
}

std::string plain_json_error(const char* what) {
  const std::string_view text(what);
  const auto tag_end = text.find("] ");
  return std::string(tag_end == std::string_view::npos ? text : text.substr(tag_end + 2));
}

}  // namespace bench::workload::detail
