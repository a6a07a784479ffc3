#pragma once
// Student's t distribution: its CDF and quantile function, for the confidence intervals of
// repeated runs and Welch's t-test in `bench compare` (confidence.hpp). Pure functions of the
// standard library; degrees of freedom may be fractional (Welch-Satterthwaite gives such).
namespace bench::metrics {

/// P(T <= t) for Student's t with `df` > 0 degrees of freedom, via the regularized incomplete
/// beta function: P(|T| > |t|) = I_x(df/2, 1/2) with x = df / (df + t^2).
double student_t_cdf(double t, double df);

/// The `q`-quantile (0 < q < 1) of Student's t with `df` > 0 degrees of freedom: the t with
/// student_t_cdf(t, df) == q, to about 1e-10. student_t_quantile(0.975, 2) = 4.303.
double student_t_quantile(double q, double df);

}  // namespace bench::metrics
