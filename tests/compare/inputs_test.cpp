// parse_threshold ("5%" is five percent, "0.05" a fraction, "5" refused). Reading a results
// file is results::read_results_file's (tests/results/read_file_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/compare/compare.hpp"

namespace {

using bench::compare::CompareError;
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

}  // namespace
