// The flag-value parsers: what each accepts, and one-line errors naming flag and value.
#include "bench/cli/values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using bench::cli::UsageError;

// Runs `parse` and returns the UsageError's message ("" when nothing was thrown).
template <typename F>
std::string error_of(F parse) {
  try {
    parse();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(ParseDuration, ReadsSecondsWithOrWithoutAUnit) {
  EXPECT_DOUBLE_EQ(bench::cli::parse_duration_s("--duration", "90"), 90);
  EXPECT_DOUBLE_EQ(bench::cli::parse_duration_s("--duration", "90s"), 90);
  EXPECT_DOUBLE_EQ(bench::cli::parse_duration_s("--duration", "1.5m"), 90);
  EXPECT_DOUBLE_EQ(bench::cli::parse_duration_s("--duration", "2h"), 7200);
  EXPECT_DOUBLE_EQ(bench::cli::parse_duration_s("--duration", "500ms"), 0.5);
}

TEST(ParseDuration, RefusesWhatIsNotAPositiveDuration) {
  for (const char* bad : {"", "s", "ten", "-5s", "0", "5 minutes", "5x", "inf"}) {
    const std::string message =
        error_of([&] { bench::cli::parse_duration_s("--warmup-duration", bad); });
    EXPECT_NE(message.find("--warmup-duration: '" + std::string(bad) + "'"), std::string::npos)
        << bad << " -> " << message;
  }
}

TEST(ParseCountList, ReadsOneValueOrACommaList) {
  EXPECT_EQ(bench::cli::parse_count_list("--concurrency", "64", 1, 100),
            (std::vector<std::int64_t>{64}));
  EXPECT_EQ(bench::cli::parse_count_list("--concurrency", "1, 8,64", 1, 100),
            (std::vector<std::int64_t>{1, 8, 64}));
}

TEST(ParseCountList, NamesTheBadElement) {
  EXPECT_NE(error_of([] {
              bench::cli::parse_count_list("--concurrency", "1,0,8", 1, 100);
            }).find("--concurrency: '0'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              bench::cli::parse_count_list("--concurrency", "1,,8", 1, 100);
            }).find("--concurrency: ''"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              bench::cli::parse_count_list("--concurrency", "-3", 1, 100);
            }).find("--concurrency: '-3'"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { bench::cli::parse_count_list("--concurrency", "2.5", 1, 100); }).find("'2.5'"),
      std::string::npos);
}

TEST(ParseRateList, ReadsRatesAndInf) {
  const auto rates = bench::cli::parse_rate_list("--request-rate", "1,4.5,inf");
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_EQ(rates[0], 1);
  EXPECT_EQ(rates[1], 4.5);
  EXPECT_TRUE(std::isinf(rates[2]));
  EXPECT_NE(error_of([] {
              bench::cli::parse_rate_list("--request-rate", "0");
            }).find("--request-rate: '0'"),
            std::string::npos);
  EXPECT_NE(error_of([] { bench::cli::parse_rate_list("--request-rate", "fast"); }).find("'fast'"),
            std::string::npos);
}

TEST(ParseGoodput, ReadsVllmsSyntax) {
  const auto slo = bench::cli::parse_goodput("--goodput", {"ttft:300", "e2el:2000"});
  EXPECT_EQ(slo.ttft_ms, 300);
  EXPECT_FALSE(slo.tpot_ms.has_value());
  EXPECT_EQ(slo.e2e_ms, 2000);
  EXPECT_NE(error_of([] { bench::cli::parse_goodput("--goodput", {"itl:5"}); }).find("'itl'"),
            std::string::npos);
  EXPECT_NE(error_of([] { bench::cli::parse_goodput("--goodput", {"ttft=5"}); }).find("'ttft=5'"),
            std::string::npos);
  EXPECT_NE(error_of([] { bench::cli::parse_goodput("--goodput", {"tpot:-1"}); }).find("'tpot:-1'"),
            std::string::npos);
}

}  // namespace
