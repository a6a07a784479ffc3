#pragma once
// A file with the given contents for the length of a test, removed when it goes out of scope.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace bench::workload::testing {

class TempFile {
 public:
  TempFile(std::string_view name, std::string_view contents)
      : path_(std::filesystem::temp_directory_path() /
              ("bench-workload-" + std::to_string(::getpid()) + "-" + std::string(name))) {
    std::ofstream out(path_, std::ios::binary);
    out << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace bench::workload::testing
