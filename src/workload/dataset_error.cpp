#include "bench/workload/dataset_error.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace bench::workload {

DatasetError::DatasetError(std::string path, std::size_t line, const std::string& message)
    : std::runtime_error(line == 0 ? path + ": " + message
                                   : path + ":" + std::to_string(line) + ": " + message),
      path_(std::move(path)),
      line_(line) {}

}  // namespace bench::workload
