#pragma once
// Test support: a file with the given contents for the length of a test, in its own fresh
// directory (so tests running at once never share a path), removed when it goes out of scope.
#include <fstream>
#include <string>
#include <string_view>

#include "run_process.hpp"

namespace bench::testing {

class TempFile {
 public:
  TempFile(std::string_view name, std::string_view contents) : path_(dir_.file(std::string(name))) {
    std::ofstream(path_, std::ios::binary) << contents;
  }

  const std::string& path() const { return path_; }

 private:
  TempDir dir_;  // declared first: it exists before path_ is made from it
  std::string path_;
};

}  // namespace bench::testing
