#include "bench/metrics/student_t.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bench::metrics {

namespace {

// The continued fraction of the regularized incomplete beta function I_x(a, b), evaluated by
// the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double fraction = d;
  for (int m = 1; m <= 10'000; ++m) {
    const double m2 = 2.0 * m;
    // The even step, then the odd step, of the fraction's terms.
    for (const double term : {m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                              -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))}) {
      d = 1.0 + term * d;
      if (std::fabs(d) < kTiny) d = kTiny;
      c = 1.0 + term / c;
      if (std::fabs(c) < kTiny) c = kTiny;
      d = 1.0 / d;
      fraction *= d * c;
      if (term < 0 && std::fabs(d * c - 1.0) < kEpsilon) return fraction;
    }
  }
  return fraction;
}

// I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1.
double regularized_beta(double a, double b, double x) {
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  // The fraction converges on one side of the mean; the other side by symmetry.
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  const double tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t));
  return t > 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double q, double df) {
  if (!(q > 0 && q < 1) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (q == 0.5) return 0.0;
  // The CDF rises monotonically: bracket the answer, then bisect it.
  double low = -1.0;
  double high = 1.0;
  while (student_t_cdf(low, df) > q) low *= 2.0;
  while (student_t_cdf(high, df) < q) high *= 2.0;
  for (int i = 0; i < 200 && high - low > 1e-12 * std::max(1.0, std::fabs(high)); ++i) {
    const double middle = 0.5 * (low + high);
    (student_t_cdf(middle, df) < q ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

}  // namespace bench::metrics
