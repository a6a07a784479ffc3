#pragma once
// The one error a dataset file can raise: what is wrong, in which file, on which line.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace bench::workload {

class DatasetError : public std::runtime_error {
 public:
  /// what() reads "PATH:LINE: MESSAGE" (the compiler convention, which editors can jump to),
  /// or "PATH: MESSAGE" when `line` is 0 (the file as a whole).
  DatasetError(std::string path, std::size_t line, const std::string& message);

  const std::string& path() const { return path_; }
  std::size_t line() const { return line_; }  // 1-based; 0 = not about one line

 private:
  std::string path_;
  std::size_t line_;
};

}  // namespace bench::workload
