#pragma once
// The results files of tests/data/compare (real runs against the embedded server; see
// make-fixtures there), read for the compare tests.
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace compare_test {

inline nlohmann::json load_fixture(const std::string& name) {
  const std::string path = std::string(BENCH_TEST_DATA_DIR) + "/compare/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  return nlohmann::json::parse(in);
}

}  // namespace compare_test
