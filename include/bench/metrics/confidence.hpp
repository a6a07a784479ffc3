#pragma once
// What repeated measurements say about the figure they measure: the mean with its confidence
// interval (Student's t), and whether two sets of repeats differ (Welch's t-test), with the
// smallest difference the data could have called real.
#include <cstddef>
#include <optional>
#include <vector>

namespace bench::metrics {

/// The mean of `count` repeats and its two-sided confidence interval, mean +- half_width:
/// half_width = t(1 - (1 - confidence) / 2, count - 1) x std_dev / sqrt(count), Student's t
/// with the sample standard deviation (n - 1 in the denominator). Without two values there is
/// no interval: half_width and std_dev are nullopt.
struct MeanInterval {
  std::size_t count = 0;
  double mean = 0;
  std::optional<double> std_dev;
  std::optional<double> half_width;
  double confidence = 0.95;
};
MeanInterval mean_interval(const std::vector<double>& values, double confidence = 0.95);

/// Welch's unequal-variances t-test of mean(b) - mean(a). `p_value` is two-sided, with the
/// Welch-Satterthwaite degrees of freedom. `min_significant_difference` is the smallest
/// |mean(b) - mean(a)| that would have given p < alpha with these variances and counts:
/// t(1 - alpha / 2, df) x the standard error of the difference. With no spread on either side
/// the standard error is 0: any difference is significant (p 0), none is p 1.
struct WelchTest {
  double difference = 0;  // mean(b) - mean(a)
  double standard_error = 0;
  double degrees_of_freedom = 0;
  double t = 0;
  double p_value = 1;
  double min_significant_difference = 0;
};
/// nullopt unless both sides have at least two values.
std::optional<WelchTest> welch_test(const std::vector<double>& a, const std::vector<double>& b,
                                    double alpha = 0.05);

}  // namespace bench::metrics
