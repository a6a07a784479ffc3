// parse_threshold ("5%" is five percent, "0.05" a fraction, "5" refused) and load_results
// (errors naming the path).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"

namespace {

using bench::compare::CompareError;
using bench::compare::load_results;
using bench::compare::parse_threshold;

double threshold(const std::string& text) {
  auto result = parse_threshold("--fail-on-regression", text);
  if (const auto* error = std::get_if<CompareError>(&result)) {
    ADD_FAILURE() << error->message;
    return -1;
  }
  return std::get<double>(result);
}

std::string refusal(const std::string& text) {
  auto result = parse_threshold("--fail-on-regression", text);
  if (std::holds_alternative<double>(result)) {
    ADD_FAILURE() << text << " was accepted";
    return "";
  }
  return std::get<CompareError>(result).message;
}

// A file in the test's temporary directory, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& contents)
      : path_(std::filesystem::temp_directory_path() /
              ("bench_compare_inputs_" +
               std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json")) {
    std::ofstream(path_) << contents;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

TEST(ParseThreshold, PercentSignMeansPercent) {
  EXPECT_DOUBLE_EQ(threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(threshold("0.5%"), 0.005);
  EXPECT_DOUBLE_EQ(threshold("150%"), 1.5);
  EXPECT_DOUBLE_EQ(threshold(" 5 % "), 0.05);
}

TEST(ParseThreshold, BareNumberIsAFraction) {
  EXPECT_DOUBLE_EQ(threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(threshold("1"), 1);
  EXPECT_DOUBLE_EQ(threshold("0"), 0);
}

TEST(ParseThreshold, RefusesABareNumberAboveOneAsAmbiguous) {
  EXPECT_EQ(refusal("5"),
            "--fail-on-regression: '5' would be a fraction (500%); write 5% for 5 percent, or a "
            "fraction up to 1");
  EXPECT_EQ(refusal("1.5"),
            "--fail-on-regression: '1.5' would be a fraction (150%); write 1.5% for 1.5 percent, "
            "or a fraction up to 1");
}

TEST(ParseThreshold, RefusesWhatIsNotANonNegativeNumber) {
  for (const std::string text : {"-5%", "-0.1", "abc", "", "%", "inf", "5%%", "five%"}) {
    EXPECT_EQ(refusal(text), "--fail-on-regression: '" + text +
                                 "' is not a threshold (5% or 0.05 allow a 5% change for the "
                                 "worse)");
  }
}

TEST(LoadResults, ReadsARealResultsFile) {
  const std::string path = std::string(BENCH_TEST_DATA_DIR) + "/compare/run_c4.json";
  auto result = load_results(path);
  ASSERT_TRUE(std::holds_alternative<nlohmann::json>(result))
      << std::get<CompareError>(result).message;
  EXPECT_TRUE(std::get<nlohmann::json>(result).contains("output_throughput"));
}

TEST(LoadResults, NamesAFileThatCannotBeOpened) {
  auto result = load_results("/nonexistent/base.json");
  ASSERT_TRUE(std::holds_alternative<CompareError>(result));
  EXPECT_EQ(std::get<CompareError>(result).message,
            "/nonexistent/base.json: cannot open: No such file or directory");
}

TEST(LoadResults, NamesAFileThatIsNotJsonWithWhere) {
  const TempFile file("{\"output_throughput\": 12,\n oops}");
  auto result = load_results(file.path());
  ASSERT_TRUE(std::holds_alternative<CompareError>(result));
  const std::string& message = std::get<CompareError>(result).message;
  EXPECT_EQ(message.rfind(file.path() + ": not JSON: parse error at line 2", 0), 0u) << message;
}

TEST(LoadResults, NamesAnEmptyFile) {
  const TempFile file("");
  auto result = load_results(file.path());
  ASSERT_TRUE(std::holds_alternative<CompareError>(result));
  EXPECT_EQ(std::get<CompareError>(result).message.rfind(file.path() + ": not JSON: ", 0), 0u);
}

}  // namespace
