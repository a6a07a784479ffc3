// Student's t: the CDF and quantiles against published tables (two-sided 95% critical values,
// e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2), symmetry, and the normal limit.
#include <gtest/gtest.h>

#include <cmath>

#include "bench/metrics/student_t.hpp"

namespace {

using bench::metrics::student_t_cdf;
using bench::metrics::student_t_quantile;

TEST(StudentT, QuantilesMatchThePublishedTwoSided95PercentTable) {
  const struct {
    double df;
    double t;
  } table[] = {{1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},  {5, 2.571},
               {9, 2.262},  {10, 2.228}, {20, 2.086}, {30, 2.042}, {100, 1.984}};
  for (const auto& row : table) {
    EXPECT_NEAR(student_t_quantile(0.975, row.df), row.t, 0.0006) << "df " << row.df;
  }
}

TEST(StudentT, CdfOfTheQuantileGivesBackTheProbabilityAtFractionalDegreesOfFreedom) {
  for (double df : {1.0, 2.5, 7.3, 41.0}) {
    for (double q : {0.01, 0.1, 0.5, 0.9, 0.995}) {
      EXPECT_NEAR(student_t_cdf(student_t_quantile(q, df), df), q, 1e-9) << df << " " << q;
    }
  }
}

TEST(StudentT, IsSymmetricAboutZero) {
  EXPECT_DOUBLE_EQ(student_t_cdf(0, 3), 0.5);
  EXPECT_NEAR(student_t_cdf(-2.0, 6) + student_t_cdf(2.0, 6), 1.0, 1e-12);
  EXPECT_NEAR(student_t_quantile(0.025, 4), -student_t_quantile(0.975, 4), 1e-9);
}

TEST(StudentT, OneDegreeOfFreedomIsTheCauchyDistribution) {
  for (double t : {-3.0, -0.5, 0.7, 10.0}) {
    EXPECT_NEAR(student_t_cdf(t, 1), 0.5 + std::atan(t) / M_PI, 1e-12);
  }
}

TEST(StudentT, ApproachesTheNormalDistributionAsDegreesOfFreedomGrow) {
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.959964, 1e-4);
  EXPECT_NEAR(student_t_cdf(1.0, 1e6), 0.841345, 1e-5);
}

TEST(StudentT, RefusesProbabilitiesOutsideTheOpenUnitIntervalAndNonPositiveDegrees) {
  EXPECT_TRUE(std::isnan(student_t_quantile(0.0, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.5, 0)));
  EXPECT_TRUE(std::isnan(student_t_cdf(1.0, -1)));
}

}  // namespace
