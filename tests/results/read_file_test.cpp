// read_results_file, the one reader of a results file (compare, report, export and merge read
// through it): a real file read whole, and each refusal one message naming the path.
#include "bench/results/read_file.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "temp_file.hpp"

namespace {

using bench::results::FormatError;
using bench::results::read_results_file;
using bench::results::ResultsFile;
using bench::testing::TempFile;

std::string refusal(const std::string& path) {
  auto result = read_results_file(path);
  if (std::holds_alternative<ResultsFile>(result)) {
    ADD_FAILURE() << path << " was read";
    return "";
  }
  return std::get<FormatError>(result).message;
}

TEST(ReadResultsFile, ReadsARealResultsFileWithItsKind) {
  auto result = read_results_file(std::string(BENCH_TEST_DATA_DIR) + "/compare/run_c4.json");
  ASSERT_TRUE(std::holds_alternative<ResultsFile>(result)) << std::get<FormatError>(result).message;
  const ResultsFile& file = std::get<ResultsFile>(result);
  EXPECT_TRUE(file.results.contains("output_throughput"));
  EXPECT_EQ(file.kind, bench::results::Kind::run);
}

TEST(ReadResultsFile, NamesAFileThatCannotBeOpened) {
  EXPECT_EQ(refusal("/nonexistent/base.json"),
            "/nonexistent/base.json: cannot open: No such file or directory");
}

TEST(ReadResultsFile, NamesAFileThatIsNotJsonWithWhere) {
  const TempFile file("base.json", "{\"output_throughput\": 12,\n oops}");
  const std::string message = refusal(file.path());
  EXPECT_EQ(message.rfind(file.path() + ": not JSON: parse error at line 2", 0), 0u) << message;
}

TEST(ReadResultsFile, NamesAnEmptyFile) {
  const TempFile file("base.json", "");
  EXPECT_EQ(refusal(file.path()).rfind(file.path() + ": not JSON: ", 0), 0u);
}

TEST(ReadResultsFile, NamesJsonThatIsNoResults) {
  const TempFile file("base.json", R"({"a": 1})");
  EXPECT_EQ(refusal(file.path()),
            file.path() + ": not a bench results object (neither output_throughput nor points)");
}

}  // namespace
