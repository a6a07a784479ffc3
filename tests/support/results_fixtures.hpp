#pragma once
// Test support: the results files of tests/data, read the one way every test does.
//   tests/data/compare: real runs against the embedded server (see make-fixtures there);
//   tests/data/results: saved results files of each kind and schema version.
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace bench::testing {

/// tests/data/`relative_path`, parsed. Throws naming the path when it cannot be opened.
inline nlohmann::json load_results_file(const std::string& relative_path) {
  const std::string path = std::string(BENCH_TEST_DATA_DIR) + "/" + relative_path;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  return nlohmann::json::parse(in);
}

/// A run or sweep of tests/data/compare, by file name ("run_c4.json").
inline nlohmann::json compare_fixture(const std::string& name) {
  return load_results_file("compare/" + name);
}

/// A saved results file of tests/data/results, by file name ("single_run.json").
inline nlohmann::json saved_results(const std::string& name) {
  return load_results_file("results/" + name);
}

}  // namespace bench::testing
