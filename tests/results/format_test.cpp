// The results format's spellings: the unlimited rate, unknown figures, kinds, numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "bench/results/format.hpp"

namespace {

using nlohmann::json;
namespace results = bench::results;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Rate, UnlimitedIsWrittenAsInfAndReadBack) {
  EXPECT_EQ(results::rate_to_json(kInf), json("inf"));
  EXPECT_EQ(results::rate_to_json(2.5), json(2.5));
  EXPECT_EQ(results::number_from_json(json("inf")), kInf);
  EXPECT_EQ(results::number_from_json(json("Infinity")), kInf);
  EXPECT_EQ(results::number_from_json(json(4)), 4.0);
}

TEST(Number, NullBooleansAndOtherTextAreNotNumbers) {
  EXPECT_FALSE(results::number_from_json(json(nullptr)));
  EXPECT_FALSE(results::number_from_json(json(true)));
  EXPECT_FALSE(results::number_from_json(json("fast")));
  EXPECT_FALSE(results::number_at(json{{"a", 1}}, "b"));
  EXPECT_FALSE(results::number_at(json::array(), "a"));
  EXPECT_EQ(results::number_at(json{{"a", 1.5}}, "a"), 1.5);
}

TEST(Known, UnknownIsNullNeverZero) {
  EXPECT_TRUE(results::known_or_null(std::nullopt).is_null());
  EXPECT_TRUE(results::known_or_null(std::nan("")).is_null());
  EXPECT_EQ(results::known_or_null(0.0), json(0.0));
  EXPECT_EQ(results::finite_or_zero(std::nan("")), 0.0);
}

TEST(Kind, NamesRoundTripAndOthersAreRefused) {
  for (auto kind :
       {results::Kind::run, results::Kind::sweep, results::Kind::search, results::Kind::merged}) {
    EXPECT_EQ(results::parse_kind(results::kind_name(kind)), kind);
  }
  EXPECT_FALSE(results::parse_kind("comparison"));
}

TEST(Labels, RatesAndFiguresReadAsPeopleWriteThem) {
  EXPECT_EQ(results::value_label(kInf), "inf");
  EXPECT_EQ(results::value_label(64), "64");
  EXPECT_EQ(results::value_label(2.5), "2.5");
  EXPECT_EQ(results::format_number(800), "800");
  EXPECT_EQ(results::format_number(612.30), "612.3");
  EXPECT_EQ(results::format_number(0.01234), "0.0123");
}

}  // namespace
