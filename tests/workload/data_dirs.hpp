#pragma once
// Where the workload tests' sample files are (tests/data).
#include <string>

namespace bench::testing {

inline const std::string kDatasetsDir = std::string(BENCH_TEST_DATA_DIR) + "/datasets/";
inline const std::string kTracesDir = std::string(BENCH_TEST_DATA_DIR) + "/traces/";
inline const std::string kServerApiDir = std::string(BENCH_TEST_DATA_DIR) + "/server-api/";

}  // namespace bench::testing
