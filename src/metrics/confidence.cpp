#include "bench/metrics/confidence.hpp"

#include <cmath>
#include <numeric>

#include "bench/metrics/student_t.hpp"

namespace bench::metrics {

namespace {

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// The sample variance, n - 1 in the denominator; needs two values.
double sample_variance(const std::vector<double>& values, double mean) {
  double sum_squares = 0;
  for (double value : values) sum_squares += (value - mean) * (value - mean);
  return sum_squares / static_cast<double>(values.size() - 1);
}

}  // namespace

MeanInterval mean_interval(const std::vector<double>& values, double confidence) {
  MeanInterval out;
  out.count = values.size();
  out.confidence = confidence;
  if (values.empty()) return out;
  out.mean = mean_of(values);
  if (values.size() < 2) return out;
  const double std_dev = std::sqrt(sample_variance(values, out.mean));
  const double df = static_cast<double>(values.size() - 1);
  const double t = student_t_quantile(1.0 - (1.0 - confidence) / 2.0, df);
  out.std_dev = std_dev;
  out.half_width = t * std_dev / std::sqrt(static_cast<double>(values.size()));
  return out;
}

std::optional<WelchTest> welch_test(const std::vector<double>& a, const std::vector<double>& b,
                                    double alpha) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  const double mean_a = mean_of(a);
  const double mean_b = mean_of(b);
  const double n_a = static_cast<double>(a.size());
  const double n_b = static_cast<double>(b.size());
  const double share_a = sample_variance(a, mean_a) / n_a;  // squared standard error of each mean
  const double share_b = sample_variance(b, mean_b) / n_b;
  WelchTest out;
  out.difference = mean_b - mean_a;
  out.standard_error = std::sqrt(share_a + share_b);
  if (out.standard_error == 0) {
    out.degrees_of_freedom = n_a + n_b - 2;
    out.p_value = out.difference == 0 ? 1.0 : 0.0;
    return out;
  }
  // Welch-Satterthwaite.
  out.degrees_of_freedom = (share_a + share_b) * (share_a + share_b) /
                           (share_a * share_a / (n_a - 1) + share_b * share_b / (n_b - 1));
  out.t = out.difference / out.standard_error;
  out.p_value = 2.0 * student_t_cdf(-std::fabs(out.t), out.degrees_of_freedom);
  out.min_significant_difference =
      student_t_quantile(1.0 - alpha / 2.0, out.degrees_of_freedom) * out.standard_error;
  return out;
}

}  // namespace bench::metrics
