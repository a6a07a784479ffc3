#pragma once
// Internal to the workload module: opening a dataset file, with errors that name it.
#include <fstream>
#include <string>
#include <string_view>

namespace bench::workload::detail {

/// Opens `path` for reading in binary mode. Throws DatasetError naming the file and saying
/// why (missing, a directory, no permission), with `what` naming the dataset ("ShareGPT").
std::ifstream open_dataset_file(const std::string& path, std::string_view what);

/// nlohmann's parse_error text without its "[json.exception.parse_error.101] " tag.
std::string plain_json_error(const char* what);

}  // namespace bench::workload::detail
